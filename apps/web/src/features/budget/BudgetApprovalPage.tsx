import { type BudgetPublic, budgetAnswerInputSchema } from '@balcao/core/budget';
import { maskCep } from '@balcao/core/cep';
import { formatDateBr } from '@balcao/core/date';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { fetchPublicBudget, postPublicAnswer, publicBudgetPdfUrl } from './api.ts';
import { BudgetPublicPixPanel } from './BudgetPublicPix.tsx';

/**
 * /orcamento/{token}: the customer's approval page, outside the dashboard and without a login. It
 * shows one budget as its PDF does, "Aprovar" or "Recusar" (with a reason); opening it is recorded
 * as "visualizado" by the API.
 */
export default function BudgetApprovalPage() {
  const { pathname } = useLocation();
  const token = pathname.split('/').filter(Boolean)[1] ?? '';
  // Public pages render outside the dashboard's QueryClientProvider: a plain fetch, once.
  const [data, setData] = useState<BudgetPublic | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    let live = true;
    fetchPublicBudget(token).then(
      (answer) => live && setData(answer),
      (e) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
      {!token ? (
        <Alert severity="error">Link de orçamento inválido ou não encontrado</Alert>
      ) : error ? (
        <Alert severity="warning" data-testid="approval-error">
          {error}
        </Alert>
      ) : !data ? (
        <Loading />
      ) : (
        <Approval token={token} data={data} onAnswered={setData} />
      )}
    </Container>
  );
}

function Approval({
  token,
  data,
  onAnswered,
}: {
  token: string;
  data: BudgetPublic;
  onAnswered: (answer: BudgetPublic) => void;
}) {
  const { shop, budget: b } = data;
  const [refusing, setRefusing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // The refusal's reason: core's rule (3 characters at least) checked before sending, a refusal under it.
  const refusal = useAppForm({
    schema: budgetAnswerInputSchema,
    defaultValues: { reason: '' },
    toInput: (v) => ({ answer: 'refused', reason: v.reason }),
  });

  const approve = async () => {
    setSending(true);
    setError(null);
    try {
      onAnswered(await postPublicAnswer(token, { answer: 'approved', reason: null }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          {shop.logoUrl && (
            <Box
              component="img"
              src={shop.logoUrl}
              alt={`Logo de ${shop.name}`}
              sx={{ maxHeight: 64, maxWidth: 120 }}
            />
          )}
          <Box>
            <Typography variant="h6" component="p">
              {shop.name}
            </Typography>
            {shop.document && <Typography variant="body2">CNPJ/CPF: {shop.document}</Typography>}
            {(shop.phone || shop.email) && (
              <Typography variant="body2">{[shop.phone, shop.email].filter(Boolean).join(' · ')}</Typography>
            )}
            {shop.address && <Typography variant="body2">{shop.address}</Typography>}
          </Box>
        </Stack>
        <Box sx={{ textAlign: { sm: 'right' } }}>
          <Typography component="h1" variant="h5">
            Orçamento nº {b.number}
          </Typography>
          <Typography variant="body2">Emitido em {formatDate(b.createdAt)}</Typography>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Válido até {formatDateBr(b.validUntil)}
          </Typography>
        </Box>
      </Stack>
      <Divider sx={{ my: 2 }} />
      <Typography>Cliente: {b.customerName ?? '—'}</Typography>
      {(b.customerDocument || b.customerPhone) && (
        <Typography variant="body2">
          {[
            b.customerDocument ? `CPF/CNPJ: ${maskDocument(b.customerDocument)}` : null,
            b.customerPhone ? `Telefone: ${maskPhone(b.customerPhone)}` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">
        Vendedor: {b.sellerName}
      </Typography>
      {b.typeOfSale === 'delivery' && b.deliveryAddress && (
        <Typography variant="body2">
          Entrega: {b.deliveryAddress.street}, {b.deliveryAddress.number} - {b.deliveryAddress.neighborhood},{' '}
          {b.deliveryAddress.city}/{b.deliveryAddress.state}
          {b.deliveryAddress.zipCode ? ` - CEP ${maskCep(b.deliveryAddress.zipCode)}` : ''}
        </Typography>
      )}

      {/* Phone cards below sm (issue 30: the totals were clipped at 390 in a sideways-scrolling box). */}
      <Box sx={{ my: 2 }}>
        <ListTable
          label="Itens do orçamento"
          head={['Produto', alignRight('Qtd'), alignRight('Unitário'), alignRight('Total')]}
        >
          {b.items.map((i, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the public view has no ids; lines keep their order
            <TableRow key={n}>
              <TableCell>
                {i.description}
                {i.variantName ? ` (${i.variantName})` : ''}
                {i.additionals.map((a) => (
                  <Typography key={a.id} variant="body2" color="text.secondary">
                    + {a.name}
                  </Typography>
                ))}
                {i.notes && (
                  <Typography variant="body2" color="text.secondary">
                    Obs.: {i.notes}
                  </Typography>
                )}
                {i.discountCents > 0 && (
                  <Typography variant="body2" color="text.secondary">
                    Desconto - {formatCents(i.discountCents)}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatQuantity(i.quantity, i.unit)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatCents(i.unitTotalCents)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatCents(i.totalCents)}
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      </Box>

      <Stack spacing={0.5} sx={{ ml: 'auto', maxWidth: 320 }}>
        <Line label="Subtotal" value={formatCents(b.itemsGrossCents)} />
        {b.itemsDiscountCents + b.discountCents > 0 && (
          <Line label="Descontos" value={`- ${formatCents(b.itemsDiscountCents + b.discountCents)}`} />
        )}
        {b.freightCents > 0 ? (
          <Line label="Frete" value={formatCents(b.freightCents)} />
        ) : (
          b.typeOfSale === 'delivery' && <Line label="Frete" value="Grátis" />
        )}
        <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
          <Typography variant="h6">Total</Typography>
          <Typography variant="h6" sx={{ fontWeight: 700 }} data-testid="approval-total">
            {formatCents(b.finalAmountCents)}
          </Typography>
        </Stack>
      </Stack>

      {b.paymentConditions && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2">Condições de pagamento</Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{b.paymentConditions}</Typography>
        </Box>
      )}
      {b.notes && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2">Observações</Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{b.notes}</Typography>
        </Box>
      )}

      <Divider sx={{ my: 3 }} />
      {b.state !== 'open' && !b.answer ? (
        <Stack spacing={2}>
          <Alert severity="info" data-testid="approval-state">
            {b.state === 'converted'
              ? 'Este orçamento já foi convertido em venda.'
              : b.state === 'canceled'
                ? 'Este orçamento foi cancelado pela loja.'
                : 'Este orçamento está vencido. Fale com a loja para renová-lo.'}
          </Alert>
          <Button href={publicBudgetPdfUrl(token)} sx={{ alignSelf: 'flex-start' }}>
            Baixar PDF
          </Button>
        </Stack>
      ) : b.answer ? (
        <Stack spacing={2}>
          <Alert severity={b.answer === 'approved' ? 'success' : 'info'} data-testid="approval-answer">
            {b.answer === 'approved'
              ? 'Orçamento aprovado. Obrigado! A loja já foi avisada.'
              : `Orçamento recusado${b.refusalReason ? `: ${b.refusalReason}` : ''}. A loja já foi avisada.`}
            {b.state === 'converted' && ' Este orçamento já foi convertido em venda.'}
          </Alert>
          <Button href={publicBudgetPdfUrl(token)} sx={{ alignSelf: 'flex-start' }}>
            Baixar PDF
          </Button>
          {b.answer === 'approved' && <BudgetPublicPixPanel token={token} canPay={b.state === 'open'} />}
        </Stack>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button variant="contained" color="success" size="large" disabled={sending} onClick={approve}>
            Aprovar
          </Button>
          <Button
            variant="outlined"
            color="error"
            size="large"
            disabled={sending}
            onClick={() => setRefusing(true)}
          >
            Recusar
          </Button>
          <Button href={publicBudgetPdfUrl(token)} sx={{ ml: { sm: 'auto' } }}>
            Baixar PDF
          </Button>
        </Stack>
      )}
      {error && !refusing && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}

      <Dialog open={refusing} onClose={() => setRefusing(false)} fullWidth maxWidth="xs">
        <Form
          form={refusal}
          aria-label="Recusar orçamento"
          onSubmit={async (body) => {
            onAnswered(await postPublicAnswer(token, body));
            setRefusing(false);
          }}
        >
          <DialogTitle>Recusar orçamento</DialogTitle>
          <DialogContent sx={{ '& > .MuiAlert-root': { mt: 2 } }}>
            <FormTextField
              control={refusal.control}
              name="reason"
              label="Motivo da recusa"
              multiline
              minRows={2}
              autoFocus
              sx={{ mt: 1 }}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <FormError />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRefusing(false)}>Voltar</Button>
            <SubmitButton color="error" busyLabel="Recusar" disabled={sending}>
              Recusar
            </SubmitButton>
          </DialogActions>
        </Form>
      </Dialog>
    </Paper>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography>{value}</Typography>
    </Stack>
  );
}
