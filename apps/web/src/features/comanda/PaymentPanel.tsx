import {
  COMANDA_PAYMENT_METHODS,
  type Comanda,
  type ComandaPaymentInput,
  type ComandaPaymentKind,
  comandaPaymentInputSchema,
  equalShares,
  itemsPaymentCents,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { comandaPixAttemptKey } from '@balcao/core/pixCharge';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { centsOf } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { formatTime } from '../../lib/format.ts';
import { offeredMethods, useEnabledMealVouchers } from '../fee-simulator/index.ts';
import { PixDynamicCharge, useRemovePixCharge } from '../pix/index.ts';
import { useAddPayment, useCloseComanda } from './api.ts';

type Method = (typeof COMANDA_PAYMENT_METHODS)[number];

type PaymentValues = {
  kind: ComandaPaymentKind;
  method: Method;
  /** The typed amount (kind "amount"), as the input shows it. */
  amount: string;
  /** The cash handed over (method "money"), as the input shows it. */
  received: string;
  /** Equal shares: into how many. */
  shares: string;
};

/** Schema and server paths shown by a field; the rest (items, a share) speak above the button. */
const FIELD_OF: Record<string, keyof PaymentValues> = {
  method: 'method',
  receivedCents: 'received',
  'share.of': 'shares',
};

/**
 * Paying a tab: by items (partial quantities), equal shares or a typed amount, any number of times
 * (a guest who leaves early pays his part); paid and remaining always shown; "Fechar comanda" once
 * nothing remains (one sale). Each action keeps its Idempotency-Key until it succeeds: a retry after
 * a lost answer counts once. A payment is a form on the kit (core's payment schema checks it first,
 * a refusal's issues land under their fields); one write runs at a time.
 */
export function PaymentPanel({ comanda, canReceive }: { comanda: Comanda; canReceive: boolean }) {
  const addPayment = useAddPayment();
  const closeComanda = useCloseComanda();
  // Meal vouchers (issue 33): only the brands the shop enabled.
  const vouchers = useEnabledMealVouchers(canReceive);
  const [items, setItems] = useState<Record<number, number>>({});
  const [error, setError] = useState<string | null>(null);
  const [closing, setClosing] = useState(false);
  const [saleId, setSaleId] = useState<number | null>(comanda.saleId);
  const payKey = useRef<string | null>(null);
  const closeKey = useRef<string | null>(null);
  // Pix QR dinâmico (issue 33): the payment waits for the bank's confirmation of its own charge.
  const [pixPayment, setPixPayment] = useState<{
    body: ComandaPaymentInput;
    key: string;
    amountCents: number;
  } | null>(null);
  const pixTxid = useRef<string | null>(null);
  const removePixCharge = useRemovePixCharge();
  const { totals } = comanda;
  const active = comanda.lines.filter((l) => l.status === 'active');
  const sharePaid = comanda.payments.filter((p) => p.kind === 'share').length;

  const shareCountOf = (shares: string) => Math.min(50, Math.max(2, Number(shares) || 2));
  const sharesOf = (shares: string) =>
    equalShares(totals.remainingCents, Math.max(1, shareCountOf(shares) - sharePaid));
  const itemsCents = useMemo(() => {
    const chosen = active.flatMap((l) => (items[l.id] ? [{ line: l, quantity: items[l.id] }] : []));
    return Math.min(itemsPaymentCents(chosen, totals.serviceFeePercent), totals.remainingCents);
  }, [active, items, totals]);
  const amountOf = (v: PaymentValues) =>
    v.kind === 'items' ? itemsCents : v.kind === 'share' ? (sharesOf(v.shares)[0] ?? 0) : centsOf(v.amount);

  /** The payment as sent (the schema checks this very body). */
  const bodyOf = (v: PaymentValues): ComandaPaymentInput => {
    const body: ComandaPaymentInput =
      v.kind === 'items'
        ? {
            kind: v.kind,
            method: v.method,
            items: Object.entries(items)
              .filter(([, q]) => q > 0)
              .map(([lineId, quantity]) => ({ lineId: Number(lineId), quantity })),
          }
        : {
            kind: v.kind,
            method: v.method,
            amountCents: amountOf(v),
            ...(v.kind === 'share' ? { share: { index: sharePaid + 1, of: shareCountOf(v.shares) } } : {}),
          };
    const receivedCents = v.method === 'money' && v.received ? centsOf(v.received) : undefined;
    return { ...body, receivedCents };
  };

  const form = useAppForm<PaymentValues, unknown>({
    schema: comandaPaymentInputSchema,
    defaultValues: {
      kind: 'amount',
      method: 'money',
      amount: '',
      received: '',
      shares: String(Math.max(2, comanda.people)),
    },
    toInput: bodyOf,
    // The amount is typed only in "Valor"; a share's or the items' amount is computed.
    fieldOf: (path): string =>
      path === 'amountCents' ? (form.getValues('kind') === 'amount' ? 'amount' : '') : (FIELD_OF[path] ?? ''),
  });
  const values = useWatch({ control: form.control }) as PaymentValues;
  const { kind, method, received } = values;
  const shareCount = shareCountOf(values.shares);
  const shareAmounts = sharesOf(values.shares);
  const amountCents = amountOf(values);

  const record = async (body: ComandaPaymentInput, key: string) => {
    await addPayment.mutateAsync({ params: { id: comanda.id }, body, idempotencyKey: key });
    payKey.current = null;
    form.reset({ ...form.getValues(), amount: '', received: '' });
    setItems({});
  };

  const pay = async () => {
    setError(null);
    payKey.current ??= newIdempotencyKey();
    const body = bodyOf(form.getValues());
    // The charge first; the payment is recorded once the bank confirms it (same key, counted once).
    if (body.method === 'pixQrCode') {
      setPixPayment({ body, key: payKey.current, amountCents: amountOf(form.getValues()) });
      return;
    }
    await record(body, payKey.current);
  };

  const pixPaid = async () => {
    if (!pixPayment) return;
    try {
      await record(pixPayment.body, pixPayment.key);
      setPixPayment(null);
      pixTxid.current = null;
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  /** Another method after all: the charge is withdrawn (a Pix that still arrives is reconciled). */
  const dropPix = () => {
    if (pixTxid.current) removePixCharge.mutate({ params: { txid: pixTxid.current } });
    pixTxid.current = null;
    payKey.current = null;
    setPixPayment(null);
  };

  const close = async () => {
    setClosing(true);
    setError(null);
    closeKey.current ??= newIdempotencyKey();
    try {
      const sale = await closeComanda.mutateAsync({
        params: { id: comanda.id },
        body: { originSale: 'command' },
        idempotencyKey: closeKey.current,
      });
      closeKey.current = null;
      setSaleId(sale.id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setClosing(false);
    }
  };

  if (comanda.status === 'finished') {
    return (
      <Alert severity="success">
        Comanda fechada na venda.{' '}
        {(saleId ?? comanda.saleId) && canReceive && (
          <Button
            component={RouterLink}
            to={`/dashboard/sale/detail/${saleId ?? comanda.saleId}`}
            size="small"
          >
            Ver venda
          </Button>
        )}
      </Alert>
    );
  }

  if (comanda.status === 'canceled') {
    return <Alert severity="info">Comanda cancelada: nada a receber.</Alert>;
  }

  const change = method === 'money' && received ? centsOf(received) - amountCents : 0;
  const paying = form.formState.isSubmitting;
  return (
    <Stack sx={{ gap: 1.5 }}>
      <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
        <Figure label="Total" value={totals.totalCents} />
        <Figure label="Pago" value={totals.paidCents} />
        <Figure label="Falta" value={totals.remainingCents} strong />
      </Stack>
      {comanda.payments.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label="Pagamentos">
          {comanda.payments.map((p) => (
            <li key={p.id}>
              <Typography variant="body2">
                {formatTime(p.createdAt)} · {p.label} · {formatCents(p.amountCents)}
                {p.changeCents > 0 ? ` (troco ${formatCents(p.changeCents)})` : ''} · {p.receivedBy.name}
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {canReceive && pixPayment && (
        <Stack sx={{ gap: 1 }}>
          <PixDynamicCharge
            attemptKey={comandaPixAttemptKey(pixPayment.key)}
            amountCents={pixPayment.amountCents}
            onCharge={(txid) => {
              pixTxid.current = txid;
            }}
            onPaid={() => void pixPaid()}
          />
          <Button variant="outlined" onClick={dropPix} disabled={addPayment.isPending}>
            Trocar forma de pagamento
          </Button>
        </Stack>
      )}
      {canReceive && !pixPayment && totals.remainingCents > 0 && (
        <Form form={form} onSubmit={pay} aria-label="Receber pagamento">
          <Stack sx={{ gap: 1.5 }}>
            <Tabs
              value={kind}
              onChange={(_, v: ComandaPaymentKind) => form.setValue('kind', v)}
              variant="fullWidth"
              aria-label="Como dividir"
            >
              <Tab value="amount" label="Valor" />
              <Tab value="share" label="Partes iguais" />
              <Tab value="items" label="Por itens" />
            </Tabs>
            {kind === 'amount' && (
              <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start' }}>
                <FormMoneyField control={form.control} name="amount" label="Valor a receber" />
                {/* Issue 30: after a partial payment, the rest in one tap. */}
                <Button
                  variant="outlined"
                  sx={{ whiteSpace: 'nowrap', minHeight: 40 }}
                  onClick={() =>
                    form.setValue('amount', formatCents(totals.remainingCents).replace('R$', '').trim(), {
                      shouldValidate: true,
                    })
                  }
                >
                  Restante
                </Button>
              </Stack>
            )}
            {kind === 'share' && (
              <Stack direction="row" sx={{ gap: 2, alignItems: 'center' }}>
                <FormTextField
                  control={form.control}
                  name="shares"
                  label="Dividir em"
                  mask={(text) => text.replace(/\D/g, '').slice(0, 2)}
                  fullWidth={false}
                  sx={{ width: 120 }}
                  slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                />
                <Typography>
                  Parte {sharePaid + 1} de {shareCount}: <strong>{formatCents(shareAmounts[0] ?? 0)}</strong>
                </Typography>
              </Stack>
            )}
            {kind === 'items' && (
              <Box>
                {active.map((l) => {
                  const left = Math.round((l.quantity - l.paidQuantity) * 1000) / 1000;
                  if (left <= 0) return null;
                  return (
                    <Stack key={l.id} direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                      <Checkbox
                        checked={Boolean(items[l.id])}
                        onChange={(e) => setItems({ ...items, [l.id]: e.target.checked ? left : 0 })}
                        slotProps={{ input: { 'aria-label': `Pagar ${l.description}` } }}
                      />
                      <Typography sx={{ flex: 1 }}>{l.description}</Typography>
                      <TextField
                        size="small"
                        label="Qtd."
                        value={items[l.id] ?? ''}
                        onChange={(e) => {
                          const n = Math.min(left, Number(e.target.value.replace(',', '.')) || 0);
                          setItems({ ...items, [l.id]: n });
                        }}
                        sx={{ width: 80 }}
                      />
                      <Typography variant="body2">de {left}</Typography>
                    </Stack>
                  );
                })}
                <Typography sx={{ mt: 1 }}>
                  Itens com taxa de serviço: <strong>{formatCents(itemsCents)}</strong>
                </Typography>
              </Box>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
              <FormTextField
                control={form.control}
                name="method"
                select
                label="Forma de pagamento"
                fullWidth={false}
                sx={{ minWidth: 200 }}
              >
                {offeredMethods(COMANDA_PAYMENT_METHODS, vouchers, method).map((m) => (
                  <MenuItem key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </MenuItem>
                ))}
              </FormTextField>
              {method === 'money' && (
                <FormMoneyField control={form.control} name="received" label="Valor recebido" />
              )}
            </Stack>
            {change > 0 && <Typography>Troco: {formatCents(change)}</Typography>}
            <FormError />
            <SubmitButton
              size="large"
              busyLabel={`Receber ${formatCents(amountCents)}`}
              disabled={closing || amountCents <= 0}
            >
              Receber {formatCents(amountCents)}
            </SubmitButton>
          </Stack>
        </Form>
      )}
      {canReceive && (
        <Button
          variant="contained"
          color="success"
          size="large"
          onClick={close}
          disabled={
            closing || paying || Boolean(pixPayment) || totals.remainingCents !== 0 || active.length === 0
          }
        >
          Fechar comanda
        </Button>
      )}
      {!canReceive && (
        <Typography variant="body2" color="text.secondary">
          O pagamento é recebido no caixa.
        </Typography>
      )}
    </Stack>
  );
}

function Figure({ label, value, strong }: { label: string; value: number; strong?: boolean }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography
        variant={strong ? 'h6' : 'subtitle1'}
        sx={{ fontWeight: strong ? 700 : 500 }}
        data-testid={`figure-${label}`}
      >
        {formatCents(value)}
      </Typography>
    </Box>
  );
}
