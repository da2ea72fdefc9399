import { productApi } from '@balcao/core/endpoints/product';
import { formatCents } from '@balcao/core/money';
import { formatQuantity, quantityInputToNumber } from '@balcao/core/product';
import { PAYMENT_METHOD_LABELS, type Sale } from '@balcao/core/sale';
import {
  lineRefundCents,
  netOfLines,
  type SaleExchangeData,
  type SaleReturns,
  saleExchangeInputSchema,
} from '@balcao/core/saleReturn';
import type { PaymentMethod } from '@balcao/core/status';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';
import { newIdempotencyKey, queryOf } from '../../lib/client.ts';
import { useSession } from '../auth/index.ts';
import { useExchangeSale } from './api.ts';
import { LineQuantityField, saleLineLabel } from './LineQuantityField.tsx';

/** How the difference of an exchange is paid at the counter. */
const DIFFERENCE_METHODS: PaymentMethod[] = ['money', 'pix', 'debitCard', 'creditCard'];

type NewItem = { productId: number; name: string; priceCents: number; quantity: number };

type Values = {
  quantities: Record<string, string>;
  reason: string;
  method: PaymentMethod;
  email: string;
  password: string;
};

/**
 * Trocar (issue 30): some lines come back and other products go out in one operation
 * (POST /v1/sale/:id/exchange). What comes back pays first; the difference is paid here, or stays as
 * the customer's vale-troca.
 */
export function ExchangeDialog({
  sale,
  returns,
  onClose,
  onDone,
}: {
  sale: Sale;
  returns: SaleReturns;
  onClose: () => void;
  onDone: (saleNumber: number) => void;
}) {
  const clientId = useSession().user?.client.id ?? 0;
  const exchange = useExchangeSale();
  const [key] = useState(newIdempotencyKey);
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<NewItem[]>([]);
  const needsApproval = !returns.canReturnWithoutApproval;
  const returnedOf = (id: number) =>
    returns.returnedQuantities.find((q) => q.saleItemId === id)?.quantity ?? 0;
  const lines = sale.items.filter((i) => i.quantity - returnedOf(i.id) > 0.0005);
  const nets = netOfLines(sale);
  const found = useQuery({
    ...queryOf(productApi.list, {
      params: { clientId },
      query: { q: search.trim(), active: 'true', pageSize: 5, page: 1 },
    }),
    enabled: clientId > 0 && search.trim().length >= 2,
  });
  const creditOf = (v: Values) =>
    lines.reduce((sum, i) => {
      const q = quantityInputToNumber(v.quantities?.[String(i.id)] ?? '') ?? 0;
      if (q <= 0 || q > i.quantity - returnedOf(i.id) + 0.0005) return sum;
      return sum + lineRefundCents(nets.get(i.id) ?? 0, i.quantity, returnedOf(i.id), q);
    }, 0);
  const newTotal = items.reduce((s, i) => s + i.priceCents * i.quantity, 0);
  const form = useAppForm({
    schema: saleExchangeInputSchema,
    defaultValues: { quantities: {}, reason: '', method: 'money', email: '', password: '' } as Values,
    toInput: (v: Values) => {
      const difference = newTotal - creditOf(v);
      return {
        lines: lines.flatMap((i) => {
          const text = v.quantities[String(i.id)] ?? '';
          return text.trim() === ''
            ? []
            : [{ saleItemId: i.id, quantity: quantityInputToNumber(text) ?? Number.NaN }];
        }),
        reason: v.reason,
        ...(needsApproval ? { approval: { email: v.email, password: v.password } } : {}),
        sale: {
          items: items.map((i) => ({ productId: i.productId, quantity: i.quantity })),
          customerId: sale.customer?.id ?? null,
          payments: difference > 0 ? [{ method: v.method, amountCents: difference }] : [],
        },
      };
    },
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  const values = useWatch({ control: form.control }) as Values;
  const credit = creditOf(values);
  const difference = newTotal - credit;
  const submit = async (body: SaleExchangeData) => {
    const made = await exchange.mutateAsync({ params: { id: sale.id }, body, idempotencyKey: key });
    onDone(made.number);
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="exchange-sale-title">
      <Form form={form} onSubmit={submit}>
        <DialogTitle id="exchange-sale-title">Trocar itens da venda nº {sale.number}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography sx={{ fontWeight: 600 }}>O que volta</Typography>
            {lines.map((i) => {
              const label = saleLineLabel(i);
              return (
                <Stack key={i.id} direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <LineQuantityField
                    control={form.control}
                    lineId={i.id}
                    unit={i.unit}
                    label="Volta"
                    ariaLabel={`Trocar de ${label}`}
                    width={140}
                  />
                  <Typography variant="body2">
                    {label} · até {formatQuantity(i.quantity - returnedOf(i.id), i.unit)}
                  </Typography>
                </Stack>
              );
            })}
            <Typography sx={{ fontWeight: 600 }}>O que leva</Typography>
            <TextField
              size="small"
              label="Buscar produto"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            {found.data && search.trim().length >= 2 && (
              <List dense aria-label="Produtos para a troca">
                {found.data.items
                  .filter((p) => p.variantCount === 0)
                  .map((p) => (
                    <ListItemButton
                      key={p.id}
                      onClick={() => {
                        setItems((list) =>
                          list.some((x) => x.productId === p.id)
                            ? list.map((x) => (x.productId === p.id ? { ...x, quantity: x.quantity + 1 } : x))
                            : [
                                ...list,
                                { productId: p.id, name: p.name, priceCents: p.salePriceCents, quantity: 1 },
                              ],
                        );
                        setSearch('');
                      }}
                    >
                      {p.name} · {formatCents(p.salePriceCents)}
                    </ListItemButton>
                  ))}
              </List>
            )}
            {items.map((i) => (
              <Stack
                key={i.productId}
                direction="row"
                sx={{ alignItems: 'center', justifyContent: 'space-between' }}
              >
                <Typography variant="body2">
                  {i.quantity} × {i.name} · {formatCents(i.priceCents * i.quantity)}
                </Typography>
                <IconButton
                  aria-label={`Tirar ${i.name}`}
                  onClick={() => setItems((list) => list.filter((x) => x.productId !== i.productId))}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Typography data-testid="exchange-credit">Volta: {formatCents(credit)}</Typography>
            <Typography data-testid="exchange-new">Leva: {formatCents(newTotal)}</Typography>
            {difference > 0 ? (
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography sx={{ fontWeight: 600 }} data-testid="exchange-difference">
                  A pagar: {formatCents(difference)}
                </Typography>
                <FormTextField
                  control={form.control}
                  name="method"
                  select
                  size="small"
                  label="Pago em"
                  fullWidth={false}
                  sx={{ minWidth: 200 }}
                >
                  {DIFFERENCE_METHODS.map((m) => (
                    <MenuItem key={m} value={m}>
                      {PAYMENT_METHOD_LABELS[m]}
                    </MenuItem>
                  ))}
                </FormTextField>
              </Stack>
            ) : (
              items.length > 0 && (
                <Alert severity="info" data-testid="exchange-difference">
                  Fica de vale-troca para o cliente: {formatCents(-difference)}
                </Alert>
              )
            )}
            <FormTextField control={form.control} name="reason" label="Motivo" required />
            {needsApproval && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton busyLabel="Trocando...">Confirmar troca</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
