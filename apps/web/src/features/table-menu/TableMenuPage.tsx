import { formatCents } from '@balcao/core/money';
import type { TableMenu } from '@balcao/core/tableMenu';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import {
  type OptionsProduct,
  type ProductChoice,
  ProductOptionsDialog,
} from '../../components/ProductOptionsDialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { setShopTimeZone } from '../../lib/shopZone.ts';
import { fetchTableMenu, newIdempotencyKey, postTableCall, postTableOrder } from './api.ts';

type MenuProduct = TableMenu['products'][number];
type CartLine = {
  /** The product and its add-ons: the same choice again adds to the line. */
  key: string;
  productId: number;
  name: string;
  /** One unit with its add-ons. */
  priceCents: number;
  additionals: ProductChoice['additionals'];
  quantity: number;
  notes: string;
};

/** The public product as the PDV's options dialog reads it (every item offered is active). */
const asOptions = (p: MenuProduct): OptionsProduct => ({
  id: p.id,
  name: p.name,
  variants: [],
  additionalGroups: p.additionalGroups.map((g) => ({
    ...g,
    active: true,
    items: g.items.map((i) => ({ ...i, active: true })),
  })),
});

/** "Aberto agora · fecha às 23:00", "Fechado · abre às 18:00" (the shop's zone), or null. */
function hoursLine(hours: TableMenu['hours']): string | null {
  if (!hours) return null;
  setShopTimeZone(hours.timeZone);
  const at = hours.nextChange ? formatTime(hours.nextChange) : null;
  if (hours.open) return at ? `Aberto agora · fecha às ${at}` : 'Aberto agora';
  return at ? `Fechado · abre às ${at}` : 'Fechado';
}

/**
 * /mesa/{token}: the QR-code menu of a table (issue 35), outside the dashboard and without a login.
 * The customer picks products (their add-ons in the PDV's dialog: required choices enforced), adds a
 * note and sends; the order waits for the waiter's approval, or goes straight to the kitchen when the
 * shop accepts table orders directly.
 */
export default function TableMenuPage() {
  const { pathname } = useLocation();
  const token = pathname.split('/').filter(Boolean)[1] ?? '';
  const [menu, setMenu] = useState<TableMenu | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [cart, setCart] = useState<CartLine[]>([]);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [choosing, setChoosing] = useState<MenuProduct | null>(null);
  // One key per order the customer sends: a retry after a lost answer places it once.
  const [orderKey, setOrderKey] = useState(newIdempotencyKey);

  useEffect(() => {
    fetchTableMenu(token).then(setMenu, (error) => setLoadError(errorMessage(error)));
  }, [token]);

  if (loadError)
    return (
      <Container maxWidth="sm" sx={{ py: 4 }}>
        <Alert severity="error">{loadError}</Alert>
      </Container>
    );
  if (!menu) return <Loading />;

  const add = (p: MenuProduct, additionals: ProductChoice['additionals'] = []) =>
    setCart((lines) => {
      const key = [p.id, ...additionals.map((a) => a.id).sort((a, b) => a - b)].join('-');
      const found = lines.find((l) => l.key === key);
      const unit = p.priceCents + additionals.reduce((s, a) => s + a.priceCents * a.quantity, 0);
      const name = additionals.length ? `${p.name} (${additionals.map((a) => a.name).join(', ')})` : p.name;
      return found
        ? lines.map((l) => (l === found ? { ...l, quantity: l.quantity + 1 } : l))
        : [...lines, { key, productId: p.id, name, priceCents: unit, additionals, quantity: 1, notes: '' }];
    });
  const pick = (p: MenuProduct) => (p.additionalGroups.length > 0 ? setChoosing(p) : add(p));
  const total = cart.reduce((s, l) => s + l.priceCents * l.quantity, 0);

  const send = async () => {
    setSending(true);
    setMessage(null);
    try {
      const order = await postTableOrder(
        token,
        {
          lines: cart.map((l) => ({
            productId: l.productId,
            quantity: l.quantity,
            additionals: l.additionals.map((a) => ({ id: a.id, quantity: a.quantity })),
            notes: l.notes || null,
          })),
        },
        orderKey,
      );
      setCart([]);
      setOrderKey(newIdempotencyKey());
      setMessage({
        severity: 'success',
        text:
          order.status === 'approved'
            ? 'Pedido enviado para o preparo!'
            : 'Pedido enviado! O garçom vai confirmar em instantes.',
      });
    } catch (error) {
      setMessage({ severity: 'error', text: errorMessage(error) });
    } finally {
      setSending(false);
    }
  };
  const callWaiter = (kind: 'waiter' | 'bill') =>
    postTableCall(token, kind).then(
      () =>
        setMessage({
          severity: 'success',
          text: kind === 'waiter' ? 'O garçom foi chamado.' : 'A conta foi pedida.',
        }),
      (error) => setMessage({ severity: 'error', text: errorMessage(error) }),
    );

  return (
    <Container maxWidth="sm" sx={{ py: 2, pb: 16 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {menu.shop}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Mesa {menu.tableLabel}
        {hoursLine(menu.hours) && ` · ${hoursLine(menu.hours)}`}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        <Button variant="outlined" onClick={() => callWaiter('waiter')}>
          Chamar garçom
        </Button>
        <Button variant="outlined" onClick={() => callWaiter('bill')}>
          Pedir a conta
        </Button>
      </Stack>
      {menu.closedMessage && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {menu.closedMessage}
        </Alert>
      )}
      {message && (
        <Alert severity={message.severity} sx={{ mb: 2 }} role="status">
          {message.text}
        </Alert>
      )}
      <Stack spacing={1}>
        {menu.products.map((p) => (
          <Paper key={p.id} variant="outlined" sx={{ p: 1, display: 'flex', gap: 1, alignItems: 'center' }}>
            {p.imageUrl && (
              <Box
                component="img"
                src={p.imageUrl}
                alt=""
                loading="lazy"
                sx={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 1 }}
              />
            )}
            <Box sx={{ flex: 1 }}>
              <Typography sx={{ fontWeight: 600 }}>{p.name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {p.category ? `${p.category} · ` : ''}
                {formatCents(p.priceCents)}
              </Typography>
            </Box>
            <Button
              variant="contained"
              disabled={!menu.open}
              onClick={() => pick(p)}
              aria-label={`Adicionar ${p.name}`}
            >
              Adicionar
            </Button>
          </Paper>
        ))}
      </Stack>
      {cart.length > 0 && (
        <Paper
          elevation={8}
          sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, p: 2, maxHeight: '60vh', overflow: 'auto' }}
          component="section"
          aria-label="Seu pedido"
        >
          <Container maxWidth="sm" disableGutters>
            {cart.map((l) => (
              <Stack key={l.key} spacing={0.5} sx={{ mb: 1 }}>
                <Typography>
                  {l.quantity} x {l.name} — {formatCents(l.priceCents * l.quantity)}
                </Typography>
                <TextField
                  size="small"
                  label={`Observação: ${l.name}`}
                  value={l.notes}
                  onChange={(e) =>
                    setCart((lines) =>
                      lines.map((x) => (x.key === l.key ? { ...x, notes: e.target.value } : x)),
                    )
                  }
                  slotProps={{ htmlInput: { maxLength: 200 } }}
                />
              </Stack>
            ))}
            <Button variant="contained" fullWidth size="large" disabled={sending} onClick={send}>
              Enviar pedido · {formatCents(total)}
            </Button>
          </Container>
        </Paper>
      )}
      <ProductOptionsDialog
        product={choosing && asOptions(choosing)}
        variant={null}
        onChoose={(choice) => {
          if (choosing) add(choosing, choice.additionals);
          setChoosing(null);
        }}
        onClose={() => setChoosing(null)}
      />
    </Container>
  );
}
