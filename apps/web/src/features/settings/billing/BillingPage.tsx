import {
  type Billing,
  changePlanInputSchema,
  INVOICE_STATUS_LABELS,
  type Invoice,
  overdueBannerText,
  type Plan,
} from '@balcao/core/billing';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../../components/FeedbackSnackbar.tsx';
import { Form, SubmitButton, useAppForm } from '../../../components/form.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useBilling, useChangePlan, usePayInvoice } from './api.ts';

const STATUS_COLORS: Record<Invoice['status'], 'default' | 'success' | 'error' | 'warning'> = {
  pending: 'warning',
  paid: 'success',
  overdue: 'error',
  canceled: 'default',
};

/** The period column gives way on phones (the due date says which invoice it is). */
const HIDE_XS = { display: { xs: 'none', sm: 'table-cell' } } as const;

const limit = (n: number | null, word: string) => (n === null ? `${word} ilimitados` : `até ${n} ${word}`);

/** /dashboard/settings/billing (Administrador): plan, usage, invoices, paying by Pix or boleto. */
export default function BillingPage() {
  const billing = useBilling();
  const feedback = useFeedback();
  if (billing.isPending) return <Loading />;
  if (billing.isError) return <LoadError error={billing.error} onRetry={() => billing.refetch()} />;
  const data = billing.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 1100 }}>
      <Typography variant="h5" component="h1">
        Assinatura
      </Typography>
      {data.overdue && (
        <Alert severity="warning">{overdueBannerText(data.overdue.dueDate, data.overdue.amountCents)}</Alert>
      )}
      <PlanCard billing={data} onFeedback={feedback.show} />
      <InvoicesCard invoices={data.invoices} onFeedback={feedback.show} />
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}

type Show = ReturnType<typeof useFeedback>['show'];

function PlanCard({ billing, onFeedback }: { billing: Billing; onFeedback: Show }) {
  const [asked, setAsked] = useState<Plan | null>(null);
  const { plan, usage } = billing;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Plano {plan.name}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
            <Figure label="Mensalidade" value={formatCents(plan.priceCents)} />
            <Figure
              label="Usuários ativos"
              value={plan.maxUsers === null ? String(usage.users) : `${usage.users} de ${plan.maxUsers}`}
            />
            <Figure
              label="Produtos"
              value={
                plan.maxProducts === null
                  ? String(usage.products)
                  : `${usage.products} de ${plan.maxProducts}`
              }
            />
          </Box>
          <Typography variant="body2" color="text.secondary">
            Período atual: {formatDateBr(billing.currentPeriod.start)} a{' '}
            {formatDateBr(billing.currentPeriod.end)}
            {billing.updatedBy &&
              ` · Alterado por ${billing.updatedBy.name} em ${formatDateTime(billing.updatedAt)}`}
          </Typography>
          <Typography variant="subtitle2" component="h3">
            Planos
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
            {billing.plans.map((p) => (
              <Card
                key={p.code}
                variant="outlined"
                sx={{ borderColor: p.code === plan.code ? 'primary.main' : undefined }}
              >
                <CardContent>
                  <Stack spacing={1}>
                    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                      <Typography variant="subtitle1">{p.name}</Typography>
                      {p.code === plan.code && <Chip size="small" color="primary" label="Plano atual" />}
                    </Stack>
                    <Typography variant="h6">{formatCents(p.priceCents)}/mês</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {limit(p.maxUsers, 'usuários')} · {limit(p.maxProducts, 'produtos')}
                    </Typography>
                    {p.code !== plan.code && (
                      <Box>
                        <Button size="small" variant="outlined" onClick={() => setAsked(p)}>
                          Mudar para este plano
                        </Button>
                      </Box>
                    )}
                  </Stack>
                </CardContent>
              </Card>
            ))}
          </Box>
        </Stack>
      </CardContent>
      <Dialog open={Boolean(asked)} onClose={() => setAsked(null)}>
        {asked && (
          <ChangePlanForm
            key={asked.code}
            plan={asked}
            billing={billing}
            onFeedback={onFeedback}
            onClose={() => setAsked(null)}
          />
        )}
      </Dialog>
    </Card>
  );
}

/**
 * The plan change's confirmation: core's schema checks the plan and the version seen; the dialog
 * closes once answered, a refusal told in the snackbar.
 */
function ChangePlanForm({
  plan,
  billing,
  onFeedback,
  onClose,
}: {
  plan: Plan;
  billing: Billing;
  onFeedback: Show;
  onClose: () => void;
}) {
  const change = useChangePlan();
  const form = useAppForm({
    schema: changePlanInputSchema,
    defaultValues: {},
    toInput: () => ({ planCode: plan.code, updatedAt: billing.updatedAt }),
  });
  return (
    <Form
      form={form}
      aria-label="Mudar de plano"
      onSubmit={async (body) => {
        const b = await change.mutateAsync({ body });
        onFeedback({ severity: 'success', title: `Plano alterado para ${b.plan.name}` });
        onClose();
      }}
      onError={(message) => {
        onFeedback({ severity: 'error', title: 'Não foi possível mudar o plano', message });
        onClose();
      }}
    >
      <DialogTitle>Mudar para o plano {plan.name}?</DialogTitle>
      <DialogContent>
        <Typography>
          A mensalidade passa a {formatCents(plan.priceCents)} a partir da próxima fatura.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <SubmitButton busyLabel="Mudando...">Mudar plano</SubmitButton>
      </DialogActions>
    </Form>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6">{value}</Typography>
    </Box>
  );
}

function InvoicesCard({ invoices, onFeedback }: { invoices: Invoice[]; onFeedback: Show }) {
  const pay = usePayInvoice();
  const [shown, setShown] = useState<{ invoice: Invoice; method: 'pix' | 'boleto' } | null>(null);
  const start = (invoice: Invoice, method: 'pix' | 'boleto') =>
    pay.mutate(
      { params: { id: invoice.id }, body: { method } },
      {
        onSuccess: (paid) => setShown({ invoice: paid, method }),
        onError: (error) =>
          onFeedback({
            severity: 'error',
            title: 'Não foi possível gerar o pagamento',
            message: errorMessage(error),
          }),
      },
    );
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Faturas
          </Typography>
          <TableContainer>
            <Table size="small" aria-label="Faturas">
              <TableHead>
                <TableRow>
                  <TableCell sx={HIDE_XS}>Período</TableCell>
                  <TableCell>Vencimento</TableCell>
                  <TableCell align="right">Valor</TableCell>
                  <TableCell>Situação</TableCell>
                  <TableCell align="right">Pagar</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {invoices.map((invoice) => {
                  const open = invoice.status === 'pending' || invoice.status === 'overdue';
                  return (
                    <TableRow key={invoice.id}>
                      <TableCell sx={HIDE_XS}>
                        {formatDateBr(invoice.periodStart)} a {formatDateBr(invoice.periodEnd)}
                      </TableCell>
                      <TableCell>{formatDateBr(invoice.dueDate)}</TableCell>
                      <TableCell align="right">{formatCents(invoice.amountCents)}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={STATUS_COLORS[invoice.status]}
                          label={INVOICE_STATUS_LABELS[invoice.status]}
                        />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {open && (
                          <>
                            <Button
                              size="small"
                              disabled={pay.isPending}
                              onClick={() => start(invoice, 'pix')}
                            >
                              Pix
                            </Button>
                            <Button
                              size="small"
                              disabled={pay.isPending}
                              onClick={() => start(invoice, 'boleto')}
                            >
                              Boleto
                            </Button>
                          </>
                        )}
                        {invoice.status === 'paid' && invoice.paidAt && (
                          <Typography variant="caption" color="text.secondary">
                            Paga em {formatDateTime(invoice.paidAt)}
                          </Typography>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </Stack>
      </CardContent>
      <PaymentDialog shown={shown} onClose={() => setShown(null)} onFeedback={onFeedback} />
    </Card>
  );
}

function PaymentDialog({
  shown,
  onClose,
  onFeedback,
}: {
  shown: { invoice: Invoice; method: 'pix' | 'boleto' } | null;
  onClose: () => void;
  onFeedback: Show;
}) {
  const invoice = shown?.invoice;
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      onFeedback({ severity: 'success', title: 'Copiado' });
    } catch {
      onFeedback({ severity: 'error', title: 'Não foi possível copiar: selecione o texto e copie' });
    }
  };
  return (
    <Dialog open={Boolean(shown)} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{shown?.method === 'pix' ? 'Pagar com Pix' : 'Pagar com boleto'}</DialogTitle>
      <DialogContent>
        {invoice && (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography>
              Fatura de {formatCents(invoice.amountCents)} · vencimento {formatDateBr(invoice.dueDate)}
            </Typography>
            {shown?.method === 'pix' && invoice.pix && (
              <>
                <Box
                  component="img"
                  src={`data:image/png;base64,${invoice.pix.encodedImage}`}
                  alt="QR Code Pix"
                  sx={{ width: 220, height: 220, alignSelf: 'center', bgcolor: '#fff' }}
                />
                <TextField
                  label="Pix copia e cola"
                  value={invoice.pix.payload}
                  multiline
                  slotProps={{ htmlInput: { readOnly: true } }}
                />
                <Box>
                  <Button variant="contained" onClick={() => copy(invoice.pix?.payload ?? '')}>
                    Copiar código Pix
                  </Button>
                </Box>
              </>
            )}
            {shown?.method === 'boleto' && invoice.boleto && (
              <>
                <TextField
                  label="Linha digitável"
                  value={invoice.boleto.identificationField}
                  multiline
                  slotProps={{ htmlInput: { readOnly: true } }}
                />
                <Stack direction="row" spacing={1}>
                  <Button variant="contained" onClick={() => copy(invoice.boleto?.identificationField ?? '')}>
                    Copiar linha digitável
                  </Button>
                  {invoice.boleto.url && (
                    <Button href={invoice.boleto.url} target="_blank" rel="noreferrer">
                      Abrir boleto
                    </Button>
                  )}
                </Stack>
              </>
            )}
            <Typography variant="body2" color="text.secondary">
              A fatura aparece como paga assim que o pagamento for confirmado.
            </Typography>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
