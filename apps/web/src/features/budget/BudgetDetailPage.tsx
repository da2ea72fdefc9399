import {
  BUDGET_STATUS_LABELS,
  type Budget,
  type BudgetSendResult,
  budgetCancelInputSchema,
  budgetRenewInputSchema,
} from '@balcao/core/budget';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import PrintIcon from '@mui/icons-material/Print';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable, useHandedOverMessage } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/index.ts';
import { PixRefundList } from '../pix/index.ts';
import {
  downloadBudgetPdf,
  printBudgetPdf,
  useBudget,
  useBudgetPixRefunds,
  useCancelBudget,
  useDuplicateBudget,
  useRenewBudget,
  useSendBudget,
} from './api.ts';
import { BUDGET_STATUS_COLORS } from './BudgetListPage.tsx';

/** /dashboard/budget/detail/{id}: the budget, its customer's answer, PDF, send, convert, renew, duplicate, cancel. */
/**
 * What the page says when the shop's WhatsApp did not send the budget: the reason once (it was
 * "WhatsApp da loja não conectado: ... WhatsApp da loja não conectado" with the API's reason appended).
 */
export function whatsappFallbackSentence(reason: string | null | undefined): string {
  const why = reason?.trim().replace(/[.:]+$/, '') || 'Não foi possível enviar pelo WhatsApp da loja';
  return `${why}: abra a conversa pelo link abaixo.`;
}

export default function BudgetDetailPage() {
  const id = useIdFromPath('/dashboard/budget/detail');
  const found = id !== undefined && !Number.isNaN(id);
  const budget = useBudget(found ? id : undefined);
  const [message, setMessage] = useState<string | null>(null);
  useHandedOverMessage(useCallback((f) => setMessage(f.title), []));

  if (!found) return <Alert severity="error">Orçamento não encontrado</Alert>;
  if (budget.isPending) return <Loading />;
  if (budget.isError) return <Alert severity="error">{errorMessage(budget.error)}</Alert>;
  return <BudgetDetail budget={budget.data} message={message} />;
}

function BudgetDetail({ budget: b, message }: { budget: Budget; message: string | null }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const mayWrite = can(user?.userType.id, WRITE.budgets);
  const open = (b.status === 'pending' || b.status === 'sent') && !b.expired;
  const send = useSendBudget();
  const duplicate = useDuplicateBudget();
  const [sent, setSent] = useState<BudgetSendResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [dialog, setDialog] = useState<'cancel' | 'renew' | null>(null);

  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const sendBy = (channel: 'whatsapp' | 'link' | 'print') =>
    run(async () => {
      setCopied(false);
      const result = await send.mutateAsync({
        params: { id: b.id },
        body: { channel },
      });
      setSent(result);
      if (channel === 'link') {
        await navigator.clipboard?.writeText(result.link.url).then(
          () => setCopied(true),
          () => undefined,
        );
      }
      if (channel === 'whatsapp' && result.whatsapp?.waLink)
        window.open(result.whatsapp.waLink, '_blank', 'noopener');
      if (channel === 'print') await printBudgetPdf(b.id);
    });

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}
      >
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography component="h1" variant="h5">
            Orçamento nº {b.number}
          </Typography>
          <Chip
            color={BUDGET_STATUS_COLORS[b.viewStatus]}
            label={BUDGET_STATUS_LABELS[b.viewStatus]}
            data-testid="budget-status"
          />
          {b.answer && (
            <Chip
              variant="outlined"
              color={b.answer === 'approved' ? 'success' : 'error'}
              label={b.answer === 'approved' ? 'Aprovado pelo cliente' : 'Recusado pelo cliente'}
              data-testid="budget-answer"
            />
          )}
        </Stack>
        <Button component={RouterLink} to="/dashboard/budget">
          Voltar
        </Button>
      </Stack>
      {message && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {message}
        </Alert>
      )}

      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {open && mayWrite && (
          <Button
            variant="contained"
            color="success"
            component={RouterLink}
            to={`/dashboard/budget/convert/${b.id}`}
          >
            Converter em venda
          </Button>
        )}
        {b.expired && mayWrite && (
          <Button variant="contained" onClick={() => setDialog('renew')}>
            Renovar
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => run(() => downloadBudgetPdf(b.id, b.number))}
        >
          Baixar PDF
        </Button>
        {open && mayWrite ? (
          <>
            <Button
              variant="outlined"
              startIcon={<PrintIcon />}
              onClick={() => sendBy('print')}
              disabled={send.isPending}
            >
              Imprimir
            </Button>
            <Button
              variant="outlined"
              startIcon={<WhatsAppIcon />}
              onClick={() => sendBy('whatsapp')}
              disabled={send.isPending}
            >
              Enviar por WhatsApp
            </Button>
            <Button
              variant="outlined"
              startIcon={<ContentCopyIcon />}
              onClick={() => sendBy('link')}
              disabled={send.isPending}
            >
              Copiar link
            </Button>
          </>
        ) : (
          <Button
            variant="outlined"
            startIcon={<PrintIcon />}
            onClick={() => run(() => printBudgetPdf(b.id))}
          >
            Imprimir
          </Button>
        )}
        {mayWrite && (
          <Button
            onClick={() =>
              run(async () => {
                const copy = await duplicate.mutateAsync({ params: { id: b.id } });
                navigate(`/dashboard/budget/detail/${copy.id}`, {
                  state: { message: `Orçamento nº ${copy.number} criado a partir do nº ${b.number}` },
                });
              })
            }
          >
            Duplicar
          </Button>
        )}
        {(b.status === 'pending' || b.status === 'sent') && mayWrite && (
          <Button color="error" onClick={() => setDialog('cancel')}>
            Cancelar orçamento
          </Button>
        )}
      </Stack>

      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      {sent && (
        <Alert
          severity={sent.whatsapp && !sent.whatsapp.sent ? 'warning' : 'success'}
          sx={{ mb: 2 }}
          data-testid="budget-sent"
        >
          <Stack spacing={1}>
            <Typography>
              {sent.whatsapp?.sent
                ? 'Orçamento enviado pelo WhatsApp da loja, com o PDF.'
                : sent.whatsapp
                  ? whatsappFallbackSentence(sent.whatsapp.reason)
                  : copied
                    ? 'Link de aprovação copiado.'
                    : 'Link de aprovação do cliente:'}
            </Typography>
            <TextField
              size="small"
              value={sent.link.url}
              label="Link de aprovação"
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'approval-link' } }}
              onFocus={(e) => e.target.select()}
            />
            {sent.whatsapp?.waLink && (
              <Button href={sent.whatsapp.waLink} target="_blank" rel="noopener" startIcon={<WhatsAppIcon />}>
                Abrir conversa no WhatsApp
              </Button>
            )}
          </Stack>
        </Alert>
      )}

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          sx={{
            display: 'grid',
            gap: 1,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
          }}
        >
          <Typography>Data: {formatDateTime(b.createdAt)}</Typography>
          <Typography>Válido até: {formatDateBr(b.validUntil)}</Typography>
          <Typography>Cliente: {b.customer?.name ?? '—'}</Typography>
          <Typography>Vendedor: {(b.seller ?? b.user).name}</Typography>
          {b.sentAt && <Typography>Enviado em {formatDateTime(b.sentAt)}</Typography>}
          <Typography data-testid="budget-viewed">
            {b.viewedAt
              ? `Visualizado pelo cliente em ${formatDateTime(b.viewedAt)}`
              : 'Ainda não visualizado pelo cliente'}
          </Typography>
          {b.answer && b.answeredAt && (
            <Typography data-testid="budget-answered">
              {b.answer === 'approved' ? 'Aprovado' : 'Recusado'} pelo cliente em{' '}
              {formatDateTime(b.answeredAt)}
              {b.refusalReason ? `: ${b.refusalReason}` : ''}
            </Typography>
          )}
          {b.pixPayment && (
            <Typography data-testid="budget-pix-paid">
              Pago por Pix pelo cliente: {formatCents(b.pixPayment.amountCents)} em{' '}
              {formatDateTime(b.pixPayment.paidAt)} (E2E {b.pixPayment.endToEndId})
            </Typography>
          )}
          {b.status === 'canceled' && <BudgetPixRefunds id={b.id} />}
          {b.sale && (
            <Typography>
              Venda: <RouterLink to={`/dashboard/sale/detail/${b.sale.id}`}>nº {b.sale.number}</RouterLink>
            </Typography>
          )}
          {b.reserveStock && (
            <Typography>
              Reserva de estoque: {b.reservationActive ? 'ativa até o fim da validade' : 'liberada'}
            </Typography>
          )}
          {b.deliveryAddress && (
            <Typography>
              Entrega: {b.deliveryAddress.street}, {b.deliveryAddress.number} -{' '}
              {b.deliveryAddress.neighborhood}, {b.deliveryAddress.city}/{b.deliveryAddress.state}
            </Typography>
          )}
          {b.status === 'canceled' && (
            <Typography color="error">
              Cancelado{b.canceledAt ? ` em ${formatDateTime(b.canceledAt)}` : ''}
              {b.cancelReason ? `: ${b.cancelReason}` : ''}
            </Typography>
          )}
        </Box>
      </Paper>

      <Paper variant="outlined" sx={{ mb: 2, overflowX: 'auto' }}>
        <ListTable
          label="Itens do orçamento"
          head={[
            'Produto',
            alignRight('Qtd'),
            alignRight('Unitário'),
            alignRight('Desconto'),
            alignRight('Total'),
          ]}
        >
          {b.items.map((i) => (
            <TableRow key={i.id}>
              <TableCell>
                {i.description}
                {i.variantName ? ` (${i.variantName})` : ''}
                {i.additionals.map((a) => (
                  <Typography key={a.id} variant="body2" color="text.secondary">
                    + {a.quantity > 1 ? `${a.quantity}x ` : ''}
                    {a.name}
                  </Typography>
                ))}
                {i.notes && (
                  <Typography variant="body2" color="text.secondary">
                    Obs.: {i.notes}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">{formatQuantity(i.quantity, i.unit)}</TableCell>
              <TableCell align="right">
                {formatCents(i.unitPriceCents)}
                {open && i.currentUnitPriceCents !== null && i.currentUnitPriceCents !== i.unitPriceCents && (
                  <Typography variant="body2" color="warning.main">
                    hoje {formatCents(i.currentUnitPriceCents)}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">
                {i.discountCents ? `- ${formatCents(i.discountCents)}` : '—'}
              </TableCell>
              <TableCell align="right">{formatCents(i.totalCents)}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      </Paper>

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 320px' },
        }}
      >
        <Stack spacing={2}>
          {b.paymentConditions && (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle2">Condições de pagamento</Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{b.paymentConditions}</Typography>
            </Paper>
          )}
          {b.notes && (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle2">Observações</Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{b.notes}</Typography>
            </Paper>
          )}
        </Stack>
        <Paper variant="outlined" sx={{ p: 2, alignSelf: 'start' }} aria-label="Totais">
          <Stack spacing={0.75}>
            <Line label="Subtotal" value={formatCents(b.itemsGrossCents)} />
            {b.itemsDiscountCents + b.discountCents > 0 && (
              <Line label="Descontos" value={`- ${formatCents(b.itemsDiscountCents + b.discountCents)}`} />
            )}
            {b.freightCents > 0 && <Line label="Frete" value={formatCents(b.freightCents)} />}
            <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
              <Typography variant="h6">Total</Typography>
              <Typography variant="h6" sx={{ fontWeight: 700 }} data-testid="budget-total">
                {formatCents(b.finalAmountCents)}
              </Typography>
            </Stack>
          </Stack>
        </Paper>
      </Box>

      {dialog === 'cancel' && <CancelDialog budget={b} onClose={() => setDialog(null)} />}
      {dialog === 'renew' && <RenewDialog budget={b} onClose={() => setDialog(null)} />}
    </Box>
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

/** The form's error sits under the fields, spaced as they are. */
const ALERT_BELOW = { '& > .MuiAlert-root': { mt: 2 } } as const;

/** Cancelling asks an optional reason (core's schema: at most 500 characters); a refusal shows above the buttons. */
function CancelDialog({ budget, onClose }: { budget: Budget; onClose: () => void }) {
  const cancel = useCancelBudget();
  const form = useAppForm({ schema: budgetCancelInputSchema, defaultValues: { reason: '' } });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <Form
        form={form}
        aria-label={`Cancelar orçamento nº ${budget.number}`}
        onSubmit={async (body) => {
          await cancel.mutateAsync({ params: { id: budget.id }, body });
          onClose();
        }}
      >
        <DialogTitle>Cancelar orçamento nº {budget.number}</DialogTitle>
        <DialogContent sx={ALERT_BELOW}>
          <FormTextField
            control={form.control}
            name="reason"
            label="Motivo (opcional)"
            multiline
            sx={{ mt: 1 }}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          {budget.reservationActive && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              A reserva de estoque será liberada.
            </Typography>
          )}
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton color="error" busyLabel="Cancelar orçamento">
            Cancelar orçamento
          </SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Renewing takes a new validity date, or none for the system's default; a bad date shows under it. */
function RenewDialog({ budget, onClose }: { budget: Budget; onClose: () => void }) {
  const renew = useRenewBudget();
  const form = useAppForm({ schema: budgetRenewInputSchema, defaultValues: { validUntil: '' } });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <Form
        form={form}
        aria-label={`Renovar orçamento nº ${budget.number}`}
        onSubmit={async (body) => {
          await renew.mutateAsync({ params: { id: budget.id }, body });
          onClose();
        }}
      >
        <DialogTitle>Renovar orçamento nº {budget.number}</DialogTitle>
        <DialogContent sx={ALERT_BELOW}>
          <Typography variant="body2" sx={{ mb: 2 }}>
            Os preços serão atualizados pelos de hoje e o orçamento volta a pendente.
          </Typography>
          <FormTextField
            control={form.control}
            name="validUntil"
            type="date"
            label="Nova validade"
            helperText="Em branco: a validade padrão do sistema"
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton busyLabel="Renovar">Renovar</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Issue 33: a canceled budget's link Pix going back to the customer (pending, done, or refused). */
function BudgetPixRefunds({ id }: { id: number }) {
  const refunds = useBudgetPixRefunds(id, true);
  return <PixRefundList refunds={refunds.data ?? []} />;
}
