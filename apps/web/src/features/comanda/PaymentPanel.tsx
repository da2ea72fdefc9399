import {
  COMANDA_PAYMENT_METHODS,
  type Comanda,
  type ComandaPaymentKind,
  equalShares,
  itemsPaymentCents,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
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
import { Link as RouterLink } from 'react-router';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { formatTime } from '../../lib/format.ts';
import { useAddPayment, useCloseComanda } from './api.ts';

type Method = (typeof COMANDA_PAYMENT_METHODS)[number];

/**
 * Paying a tab: by items (partial quantities), equal shares or a typed amount, any number of times
 * (a guest who leaves early pays his part); paid and remaining always shown; "Fechar comanda" once
 * nothing remains (one sale). Each action keeps its Idempotency-Key until it succeeds: a retry after
 * a lost answer counts once.
 */
export function PaymentPanel({ comanda, canReceive }: { comanda: Comanda; canReceive: boolean }) {
  const addPayment = useAddPayment();
  const closeComanda = useCloseComanda();
  const [kind, setKind] = useState<ComandaPaymentKind>('amount');
  const [method, setMethod] = useState<Method>('money');
  const [amount, setAmount] = useState('');
  const [received, setReceived] = useState('');
  const [shares, setShares] = useState(String(Math.max(2, comanda.people)));
  const [items, setItems] = useState<Record<number, number>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saleId, setSaleId] = useState<number | null>(comanda.saleId);
  const pendingKey = useRef<string | null>(null);
  const { totals } = comanda;
  const active = comanda.lines.filter((l) => l.status === 'active');

  const shareCount = Math.min(50, Math.max(2, Number(shares) || 2));
  const sharePaid = comanda.payments.filter((p) => p.kind === 'share').length;
  const shareAmounts = useMemo(
    () => equalShares(totals.remainingCents, Math.max(1, shareCount - sharePaid)),
    [totals.remainingCents, shareCount, sharePaid],
  );
  const itemsCents = useMemo(() => {
    const chosen = active.flatMap((l) => (items[l.id] ? [{ line: l, quantity: items[l.id] }] : []));
    return Math.min(itemsPaymentCents(chosen, totals.serviceFeePercent), totals.remainingCents);
  }, [active, items, totals]);

  const amountCents =
    kind === 'items' ? itemsCents : kind === 'share' ? (shareAmounts[0] ?? 0) : centsOf(amount);

  const run = async (work: (key: string) => Promise<void>) => {
    setBusy(true);
    setError(null);
    pendingKey.current ??= newIdempotencyKey();
    try {
      await work(pendingKey.current);
      pendingKey.current = null;
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const pay = () =>
    run(async (key) => {
      const body =
        kind === 'items'
          ? {
              kind,
              method,
              items: Object.entries(items)
                .filter(([, q]) => q > 0)
                .map(([lineId, quantity]) => ({ lineId: Number(lineId), quantity })),
            }
          : {
              kind,
              method,
              amountCents,
              ...(kind === 'share' ? { share: { index: sharePaid + 1, of: shareCount } } : {}),
            };
      const receivedCents = method === 'money' && received ? centsOf(received) : undefined;
      await addPayment.mutateAsync({
        params: { id: comanda.id },
        body: { ...body, receivedCents },
        idempotencyKey: key,
      });
      setAmount('');
      setReceived('');
      setItems({});
    });

  const close = () =>
    run(async (key) => {
      const sale = await closeComanda.mutateAsync({
        params: { id: comanda.id },
        body: { originSale: 'command' },
        idempotencyKey: key,
      });
      setSaleId(sale.id);
    });

  if (comanda.status === 'finished') {
    return (
      <Alert severity="success">
        Comanda fechada na venda.{' '}
        {saleId && (
          <Button component={RouterLink} to={`/dashboard/sale/detail/${saleId}`} size="small">
            Ver venda
          </Button>
        )}
      </Alert>
    );
  }

  const change = method === 'money' && received ? centsOf(received) - amountCents : 0;
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
      {canReceive && totals.remainingCents > 0 && (
        <>
          <Tabs value={kind} onChange={(_, v) => setKind(v)} variant="fullWidth" aria-label="Como dividir">
            <Tab value="amount" label="Valor" />
            <Tab value="share" label="Partes iguais" />
            <Tab value="items" label="Por itens" />
          </Tabs>
          {kind === 'amount' && <MoneyField label="Valor a receber" value={amount} onChange={setAmount} />}
          {kind === 'share' && (
            <Stack direction="row" sx={{ gap: 2, alignItems: 'center' }}>
              <TextField
                label="Dividir em"
                value={shares}
                onChange={(e) => setShares(e.target.value.replace(/\D/g, '').slice(0, 2))}
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
            <TextField
              select
              label="Forma de pagamento"
              value={method}
              onChange={(e) => setMethod(e.target.value as Method)}
              sx={{ minWidth: 200 }}
            >
              {COMANDA_PAYMENT_METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </MenuItem>
              ))}
            </TextField>
            {method === 'money' && (
              <MoneyField label="Valor recebido" value={received} onChange={setReceived} />
            )}
          </Stack>
          {change > 0 && <Typography>Troco: {formatCents(change)}</Typography>}
          <Button variant="contained" size="large" onClick={pay} disabled={busy || amountCents <= 0}>
            Receber {formatCents(amountCents)}
          </Button>
        </>
      )}
      {canReceive && (
        <Button
          variant="contained"
          color="success"
          size="large"
          onClick={close}
          disabled={busy || totals.remainingCents !== 0 || active.length === 0}
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
