import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { ACTION, can, WRITE } from '@balcao/core/routes';
import {
  DEFERRED_METHODS,
  OFFLINE_FLAG_LABELS,
  OFFLINE_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS_IN_PDV,
  receivableSettleSchema,
  SALE_STATUS_LABELS,
  type Sale,
  type SaleCancelInput,
  saleCancelSchema,
  saleOriginText,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/index.ts';
import { SaleFiscalNote } from '../fiscal/index.ts';
import { PixRefunds } from '../pix/index.ts';
import { useCancelSale, useSale, useSaleReturns, useSettleReceivable } from './api.ts';
import { Receipt } from './Receipt.tsx';
import { STATUS_COLORS } from './SaleListPage.tsx';
import { SaleReturnsPanel } from './SaleReturns.tsx';

/** /dashboard/sale/detail/{id}: items, payments, receivables, reprint, cancel, settle. */
export default function SaleDetailPage() {
  const id = useIdFromPath('/dashboard/sale/detail');
  const found = id !== undefined && !Number.isNaN(id);
  const { user } = useSession();
  const sale = useSale(found ? id : undefined);
  const returns = useSaleReturns(found ? id : undefined);
  const [receipt, setReceipt] = useState(false);
  const [canceling, setCanceling] = useState(false);

  if (!found) return <Alert severity="error">Venda não encontrada</Alert>;
  if (sale.isPending) return <Loading />;
  if (sale.isError) return <Alert severity="error">{errorMessage(sale.error)}</Alert>;
  const s = sale.data;

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}
      >
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography component="h1" variant="h5">
            Venda nº {s.number}
          </Typography>
          <Chip
            color={STATUS_COLORS[s.status]}
            label={SALE_STATUS_LABELS[s.status]}
            data-testid="sale-status"
          />
        </Stack>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" onClick={() => setReceipt(true)}>
            Reimprimir
          </Button>
          {s.status !== 'canceled' &&
            !returns.data?.returns.length &&
            can(user?.userType.id, WRITE.sales) && (
              <Button color="error" variant="outlined" onClick={() => setCanceling(true)}>
                Cancelar venda
              </Button>
            )}
          <Button component={RouterLink} to="/dashboard/sale">
            Voltar
          </Button>
        </Stack>
      </Stack>

      {s.offlineFlags.length > 0 && (
        <Alert severity="warning" data-testid="sale-offline-flags" sx={{ mb: 2 }}>
          Venda feita sem conexão aceita com divergência:{' '}
          {s.offlineFlags.map((f) => OFFLINE_FLAG_LABELS[f].toLowerCase()).join(', ')}. Confira com o
          operador.
        </Alert>
      )}
      <Box sx={{ mb: 2 }}>
        <SaleFiscalNote saleId={s.id} />
      </Box>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          sx={{
            display: 'grid',
            gap: 1,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
          }}
        >
          <Typography>Data: {formatDateTime(s.createdAt)}</Typography>
          <Typography>Origem: {saleOriginText(s)}</Typography>
          <Typography>Cliente: {s.customer?.name ?? '—'}</Typography>
          <Typography>
            Operador: {s.user.name}
            {s.seller ? ` · ${s.typeOfSale === 'command' ? 'garçom' : 'vendedor'} ${s.seller.name}` : ''}
          </Typography>
          {s.notes && (
            // Issue 30: the note a sale carries (a comanda's number, table and payments) is shown.
            <Typography data-testid="sale-notes" sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }}>
              Observações: {s.notes}
            </Typography>
          )}
          {s.madeOffline && (
            <Typography data-testid="sale-offline">
              {OFFLINE_MESSAGES.offlineLabel}
              {s.syncedAt ? ` · enviada em ${formatDateTime(s.syncedAt)}` : ''}
            </Typography>
          )}
          {s.discountApprovedBy && (
            <Typography data-testid="discount-approved-by">
              Desconto acima do limite aprovado por {s.discountApprovedBy.name}
            </Typography>
          )}
          {s.deliveryAddress && (
            <Typography>
              Entrega: {s.deliveryAddress.street}, {s.deliveryAddress.number} -{' '}
              {s.deliveryAddress.neighborhood}, {s.deliveryAddress.city}/{s.deliveryAddress.state}
            </Typography>
          )}
          {s.status === 'canceled' && (
            <Typography color="error">
              Cancelada em {s.canceledAt ? formatDateTime(s.canceledAt) : ''} por {s.canceledBy?.name}:{' '}
              {s.cancelReason}
            </Typography>
          )}
          {s.status === 'canceled' && s.cancelApprovedBy && (
            <Typography color="error" data-testid="sale-cancel-approved-by">
              Cancelamento aprovado por {s.cancelApprovedBy.name}
            </Typography>
          )}
          {s.status === 'canceled' && s.payments.some((p) => p.method === 'pixQrCode') && (
            <PixRefunds saleId={s.id} />
          )}
        </Box>
      </Paper>

      <Paper variant="outlined" sx={{ mb: 2, overflowX: 'auto' }}>
        <ListTable
          label="Itens"
          head={[
            'Item',
            alignRight('Qtd.'),
            alignRight('Unitário'),
            alignRight('Desconto'),
            alignRight('Total'),
          ]}
        >
          {s.items.map((i) => (
            <TableRow key={i.id}>
              <TableCell>
                {i.description}
                {i.variantName ? ` (${i.variantName})` : ''}
                {i.additionals.length > 0 && (
                  <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                    + {i.additionals.map((a) => a.name).join(', ')}
                  </Typography>
                )}
                {(() => {
                  const back = returns.data?.returnedQuantities.find((q) => q.saleItemId === i.id)?.quantity;
                  return back ? (
                    <Typography variant="caption" color="warning.main" sx={{ display: 'block' }}>
                      Devolvido: {formatQuantity(back, i.unit)}
                    </Typography>
                  ) : null;
                })()}
              </TableCell>
              <TableCell align="right">{formatQuantity(i.quantity, i.unit)}</TableCell>
              <TableCell align="right">{formatCents(i.unitTotalCents)}</TableCell>
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
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
          mb: 2,
        }}
      >
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography component="h2" variant="h6" gutterBottom>
            Totais
          </Typography>
          <Line label="Subtotal" value={formatCents(s.totalCents)} />
          {s.discountCents > 0 && <Line label="Desconto" value={`- ${formatCents(s.discountCents)}`} />}
          {s.couponDiscountCents > 0 && (
            <Line label={`Cupom ${s.coupon?.code ?? ''}`} value={`- ${formatCents(s.couponDiscountCents)}`} />
          )}
          {s.freightCents > 0 && <Line label="Frete" value={formatCents(s.freightCents)} />}
          <Line label="Total" value={formatCents(s.finalAmountCents)} strong />
        </Paper>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography component="h2" variant="h6" gutterBottom>
            Pagamentos
          </Typography>
          {s.payments.map((p) => (
            <Box key={p.id}>
              <Line
                label={`${PAYMENT_METHOD_LABELS[p.method]}${p.numberInstallments > 1 ? ` ${p.numberInstallments}x` : ''}`}
                value={formatCents(p.amountCents)}
              />
              {/* Issue 33: the bank's id of the Pix (E2E), the one the customer's app shows. */}
              {p.pixEndToEndId && (
                <Typography
                  variant="caption"
                  color="text.secondary"
                  sx={{ display: 'block', wordBreak: 'break-all' }}
                  data-testid="pix-e2e"
                >
                  ID do Pix (E2E): {p.pixEndToEndId}
                </Typography>
              )}
            </Box>
          ))}
          {s.changeCents > 0 && (
            <>
              <Line label="Recebido em dinheiro" value={formatCents(s.cashDepositAmountCents)} />
              <Line label="Troco" value={formatCents(s.changeCents)} />
            </>
          )}
        </Paper>
      </Box>

      <SaleReturnsPanel sale={s} returns={returns.data} canReturn={can(user?.userType.id, WRITE.sales)} />

      {s.receivables.length > 0 && (
        <Receivables sale={s} canSettle={can(user?.userType.id, ACTION.settleReceivables)} />
      )}

      <Dialog open={receipt} onClose={() => setReceipt(false)} maxWidth="md">
        <DialogTitle>Comprovante</DialogTitle>
        <DialogContent>
          <Receipt sale={s} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setReceipt(false)}>Fechar</Button>
        </DialogActions>
      </Dialog>
      <CancelDialog
        open={canceling}
        sale={s}
        needsApproval={!can(user?.userType.id, ACTION.approve)}
        onClose={() => setCanceling(false)}
      />
    </Box>
  );
}

function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography sx={{ fontWeight: strong ? 700 : undefined }}>{label}</Typography>
      <Typography sx={{ fontWeight: strong ? 700 : undefined }}>{value}</Typography>
    </Stack>
  );
}

function Receivables({ sale, canSettle }: { sale: Sale; canSettle: boolean }) {
  const settle = useSettleReceivable();
  // Each "Receber" submits the form for its own installment, with the method chosen above.
  const target = useRef<number | null>(null);
  const form = useAppForm({
    schema: receivableSettleSchema,
    defaultValues: { paymentMethod: 'money' as PaymentMethod },
  });
  const submit = async ({ paymentMethod }: { paymentMethod: PaymentMethod }) => {
    if (target.current === null) return;
    await settle.mutateAsync({
      params: { id: sale.id, receivableId: target.current },
      body: { paymentMethod },
    });
  };
  return (
    <Form form={form} onSubmit={submit} aria-label="Receber parcela">
      <Paper variant="outlined" sx={{ p: 2, mb: 2, overflowX: 'auto' }}>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, gap: 2, flexWrap: 'wrap' }}
        >
          <Typography component="h2" variant="h6">
            Parcelas
          </Typography>
          {canSettle && sale.status === 'pending' && (
            <FormTextField
              control={form.control}
              name="paymentMethod"
              select
              size="small"
              label="Recebido em"
              fullWidth={false}
              sx={{ minWidth: 200 }}
            >
              {PAYMENT_METHODS_IN_PDV.filter((m) => !DEFERRED_METHODS.includes(m) && m !== 'storeCredit').map(
                (m) => (
                  <MenuItem key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </MenuItem>
                ),
              )}
            </FormTextField>
          )}
        </Stack>
        <FormError />
        <ListTable
          label="Parcelas"
          head={['Parcela', 'Forma', 'Vencimento', alignRight('Valor'), 'Situação', '']}
        >
          {sale.receivables.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.installment}ª</TableCell>
              <TableCell>{PAYMENT_METHOD_LABELS[r.method]}</TableCell>
              <TableCell>{formatDateBr(r.dueDate)}</TableCell>
              <TableCell align="right">{formatCents(r.amountCents)}</TableCell>
              <TableCell>
                {r.status === 'finished'
                  ? `Paga em ${r.paidAt ? formatDateTime(r.paidAt) : ''}`
                  : r.status === 'canceled'
                    ? 'Cancelada'
                    : r.isOverdue
                      ? 'Vencida'
                      : 'Em aberto'}
              </TableCell>
              <TableCell align="right">
                {canSettle && r.status === 'pending' && (
                  <SubmitButton
                    variant="text"
                    size="small"
                    busyLabel="Receber"
                    onClick={() => {
                      target.current = r.id;
                    }}
                  >
                    Receber
                  </SubmitButton>
                )}
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      </Paper>
    </Form>
  );
}

function CancelDialog({
  open,
  sale,
  needsApproval,
  onClose,
}: {
  open: boolean;
  sale: Sale;
  needsApproval: boolean;
  onClose: () => void;
}) {
  const cancel = useCancelSale();
  const form = useAppForm({
    schema: saleCancelSchema,
    defaultValues: { reason: '', email: '', password: '' },
    toInput: ({ reason, email, password }: { reason: string; email: string; password: string }) => ({
      reason,
      ...(needsApproval ? { approval: { email, password } } : {}),
    }),
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  const submit = async (body: SaleCancelInput) => {
    await cancel.mutateAsync({ params: { id: sale.id }, body });
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="cancel-sale-title">
      <Form form={form} onSubmit={submit}>
        <DialogTitle id="cancel-sale-title">Cancelar venda nº {sale.number}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              O estoque volta, o cupom é liberado e as parcelas em aberto são canceladas.
            </Typography>
            <FormTextField control={form.control} name="reason" label="Motivo" required autoFocus />
            {needsApproval && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton color="error" busyLabel="Cancelando...">
            Cancelar venda
          </SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
