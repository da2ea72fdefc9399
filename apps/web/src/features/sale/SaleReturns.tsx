import { formatCents } from '@balcao/core/money';
import { formatQuantity, quantityInputToNumber } from '@balcao/core/product';
import { PAYMENT_METHOD_LABELS, type Sale } from '@balcao/core/sale';
import {
  lineRefundCents,
  netOfLines,
  REFUND_KIND_LABELS,
  type RefundKind,
  SALE_RETURN_MESSAGES,
  type SaleReturnInput,
  type SaleReturns,
  saleReturnInputSchema,
} from '@balcao/core/saleReturn';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';
import { newIdempotencyKey } from '../../lib/client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useReturnSale } from './api.ts';
import { LineQuantityField, saleLineLabel } from './LineQuantityField.tsx';
import { ExchangeDialog } from './SaleExchange.tsx';

/**
 * Trocas e devoluções on a sale's detail (issue 30): what went back so far and the dialog that returns
 * some lines for a vale-troca or the money by the sale's methods.
 */
export function SaleReturnsPanel({
  sale,
  returns,
  canReturn,
}: {
  sale: Sale;
  returns: SaleReturns | undefined;
  canReturn: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [exchanging, setExchanging] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (!returns) return null;
  const returnedOf = (id: number) =>
    returns.returnedQuantities.find((q) => q.saleItemId === id)?.quantity ?? 0;
  const anyLeft = sale.items.some((i) => i.quantity - returnedOf(i.id) > 0.0005);
  const offer = canReturn && sale.status !== 'canceled' && anyLeft;
  if (returns.returns.length === 0 && !offer) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}
      >
        <Typography component="h2" variant="h6">
          Trocas e devoluções
        </Typography>
        {offer &&
          (returns.withinWindow ? (
            <Stack direction="row" spacing={1}>
              {sale.customer && (
                <Button variant="outlined" onClick={() => setExchanging(true)}>
                  Trocar itens
                </Button>
              )}
              <Button variant="outlined" onClick={() => setOpen(true)}>
                Devolver itens
              </Button>
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {SALE_RETURN_MESSAGES.windowOver(returns.windowDays)}
            </Typography>
          ))}
      </Stack>
      {returns.returns.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Trocas em até {returns.windowDays} dias após a compra.
        </Typography>
      ) : (
        <Stack spacing={1.5} data-testid="sale-returns">
          {returns.returns.map((r) => (
            <div key={r.id}>
              <Typography sx={{ fontWeight: 600 }}>
                {formatDateTime(r.createdAt)} · {r.user.name} ·{' '}
                {r.refund === 'storeCredit'
                  ? `Vale-troca de ${formatCents(r.amountCents)}${r.customer ? ` para ${r.customer.name}` : ''}`
                  : `Devolvido ${formatCents(r.amountCents)} (${r.refunds.map((f) => PAYMENT_METHOD_LABELS[f.method]).join(', ')})`}
              </Typography>
              {r.lines.map((l) => {
                const item = sale.items.find((i) => i.id === l.saleItemId);
                return (
                  <Typography key={l.saleItemId} variant="body2">
                    {formatQuantity(l.quantity, item?.unit)} × {l.description}
                    {l.variantName ? ` (${l.variantName})` : ''} · {formatCents(l.amountCents)}
                    {l.restock ? '' : ' · sem voltar ao estoque'}
                  </Typography>
                );
              })}
              <Typography variant="body2" color="text.secondary">
                Motivo: {r.reason}
                {r.approvedBy ? ` · aprovado por ${r.approvedBy.name}` : ''}
              </Typography>
            </div>
          ))}
          <Typography sx={{ fontWeight: 600 }}>
            Total devolvido: {formatCents(returns.returnedCents)}
          </Typography>
        </Stack>
      )}
      {done && (
        <Alert severity="success" sx={{ mb: 1 }} onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      {open && <ReturnDialog sale={sale} returns={returns} onClose={() => setOpen(false)} />}
      {exchanging && (
        <ExchangeDialog
          sale={sale}
          returns={returns}
          onClose={() => setExchanging(false)}
          onDone={(number) => {
            setExchanging(false);
            setDone(`Troca registrada: venda nº ${number}`);
          }}
        />
      )}
    </Paper>
  );
}

type Values = {
  quantities: Record<string, string>;
  restock: Record<string, boolean>;
  refund: RefundKind;
  reason: string;
  email: string;
  password: string;
};

function ReturnDialog({ sale, returns, onClose }: { sale: Sale; returns: SaleReturns; onClose: () => void }) {
  const returnSale = useReturnSale();
  // One key per dialog: a retried "Devolver" after a lost answer records one return.
  const [key] = useState(newIdempotencyKey);
  const needsApproval = !returns.canReturnWithoutApproval;
  const returnedOf = (id: number) =>
    returns.returnedQuantities.find((q) => q.saleItemId === id)?.quantity ?? 0;
  const items = sale.items.filter((i) => i.quantity - returnedOf(i.id) > 0.0005);
  const toInput = (v: Values): SaleReturnInput => ({
    lines: items.flatMap((i) => {
      const text = v.quantities[String(i.id)] ?? '';
      if (text.trim() === '') return [];
      return [
        {
          saleItemId: i.id,
          quantity: quantityInputToNumber(text) ?? Number.NaN,
          restock: v.restock[String(i.id)] ?? true,
        },
      ];
    }),
    refund: v.refund,
    reason: v.reason,
    ...(needsApproval ? { approval: { email: v.email, password: v.password } } : {}),
  });
  const form = useAppForm({
    schema: saleReturnInputSchema,
    defaultValues: {
      quantities: {},
      restock: {},
      refund: sale.customer ? 'storeCredit' : 'original',
      reason: '',
      email: '',
      password: '',
    } as Values,
    toInput,
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  const values = useWatch({ control: form.control }) as Values;
  const nets = netOfLines(sale);
  const preview = items.reduce((sum, i) => {
    const q = quantityInputToNumber(values.quantities?.[String(i.id)] ?? '') ?? 0;
    if (q <= 0 || q > i.quantity - returnedOf(i.id) + 0.0005) return sum;
    return sum + lineRefundCents(nets.get(i.id) ?? 0, i.quantity, returnedOf(i.id), q);
  }, 0);
  const submit = async (body: SaleReturnInput) => {
    await returnSale.mutateAsync({ params: { id: sale.id }, body, idempotencyKey: key });
    onClose();
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="return-sale-title">
      <Form form={form} onSubmit={submit}>
        <DialogTitle id="return-sale-title">Devolver itens da venda nº {sale.number}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              Informe quanto volta de cada item. Desmarque "Volta ao estoque" para produtos com defeito.
            </Typography>
            {items.map((i) => {
              const left = i.quantity - returnedOf(i.id);
              const label = saleLineLabel(i);
              return (
                <Stack key={i.id} spacing={0.5}>
                  <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    Vendido {formatQuantity(i.quantity, i.unit)} · pode devolver{' '}
                    {formatQuantity(left, i.unit)}
                  </Typography>
                  <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <LineQuantityField
                      control={form.control}
                      lineId={i.id}
                      unit={i.unit}
                      label="Devolver"
                      ariaLabel={`Devolver de ${label}`}
                      width={200}
                    />
                    <Controller
                      control={form.control}
                      name={`restock.${i.id}`}
                      render={({ field }) => (
                        <FormControlLabel
                          control={
                            <Checkbox
                              checked={field.value ?? true}
                              onChange={(e) => field.onChange(e.target.checked)}
                            />
                          }
                          label="Volta ao estoque"
                        />
                      )}
                    />
                  </Stack>
                </Stack>
              );
            })}
            <Controller
              control={form.control}
              name="refund"
              render={({ field }) => (
                <RadioGroup
                  aria-label="Como devolver o valor"
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value)}
                >
                  <FormControlLabel
                    value="storeCredit"
                    control={<Radio />}
                    label={REFUND_KIND_LABELS.storeCredit}
                    disabled={!sale.customer}
                  />
                  <FormControlLabel
                    value="original"
                    control={<Radio />}
                    label={REFUND_KIND_LABELS.original}
                  />
                </RadioGroup>
              )}
            />
            {!sale.customer && (
              <Alert severity="info">Venda sem cliente: o vale-troca precisa de um cliente na venda.</Alert>
            )}
            <Typography sx={{ fontWeight: 600 }} data-testid="return-preview">
              Valor a devolver: {formatCents(preview)}
            </Typography>
            <FormTextField control={form.control} name="reason" label="Motivo" required />
            {needsApproval && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton busyLabel="Devolvendo...">Confirmar devolução</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
