import {
  MARKETPLACE_ORDER_STATUS_LABELS,
  type MarketplaceOrder,
  type MarketplaceOrderItem,
} from '@balcao/core/marketplace';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { playNewOrderSound, useNow, useSoundBlocked } from '../delivery/index.ts';
import {
  useAnswerCancellation,
  useConfirmOrder,
  useMapItem,
  useMarketplaceOrders,
  useRejectOrder,
} from './api.ts';
import { ProductPicker } from './ProductPicker.tsx';

/** "7:05" until the marketplace's deadline, or null when it has passed. */
function countdown(deadline: string, now: Date): string | null {
  const ms = new Date(deadline).getTime() - now.getTime();
  if (ms <= 0) return null;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

type Show = ReturnType<typeof useFeedback>['show'];

function ItemLine({
  order,
  item,
  canMap,
  show,
}: {
  order: MarketplaceOrder;
  item: MarketplaceOrderItem;
  canMap: boolean;
  show: Show;
}) {
  const map = useMapItem();
  return (
    <Box component="li" sx={{ mb: 1 }}>
      <Typography variant="body2">
        {item.quantity}x {item.name} — {formatCents(item.totalCents)}
        {item.notes ? ` (${item.notes})` : ''}
      </Typography>
      {item.product ? (
        <Typography variant="caption" color="text.secondary">
          Produto da loja: {item.product.name}
        </Typography>
      ) : (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ mt: 0.5, alignItems: { sm: 'center' } }}
        >
          <Chip
            size="small"
            color="warning"
            label="Sem produto"
            sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
          />
          {canMap && (
            <ProductPicker
              label={`Produto da loja para "${item.name}"`}
              disabled={map.isPending}
              onPick={(product) =>
                map.mutate(
                  {
                    body: {
                      accountId: order.accountId,
                      externalCode: item.externalCode,
                      productId: product.id,
                    },
                  },
                  {
                    onError: (e) =>
                      show({
                        severity: 'error',
                        title: 'Não foi possível associar',
                        message: errorMessage(e),
                      }),
                  },
                )
              }
            />
          )}
        </Stack>
      )}
    </Box>
  );
}

function OrderCard({
  order,
  now,
  canAct,
  show,
}: {
  order: MarketplaceOrder;
  now: Date;
  canAct: boolean;
  show: Show;
}) {
  const confirm = useConfirmOrder();
  const reject = useRejectOrder();
  const answer = useAnswerCancellation();
  const unmapped = order.items.some((i) => i.product === null);
  const left = countdown(order.confirmDeadline, now);
  const waiting = order.status === 'new' || order.status === 'mapping';
  const fail = (title: string) => (e: unknown) =>
    show({ severity: 'error', title, message: errorMessage(e) });
  const title = `${order.marketplace} #${order.displayId}`;
  return (
    <Paper component="article" aria-label={`Pedido ${title}`} sx={{ p: 2 }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}
      >
        <Box>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Recebido às {formatTime(order.createdAt)} · {order.type === 'delivery' ? 'Entrega' : 'Retirada'}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Chip
            size="small"
            color={
              order.status === 'confirmed' ? 'success' : order.status === 'canceled' ? 'default' : 'warning'
            }
            label={MARKETPLACE_ORDER_STATUS_LABELS[order.status]}
          />
          {waiting && (
            <Chip
              size="small"
              color={left ? 'info' : 'error'}
              label={left ? `Confirme em ${left}` : 'Prazo do marketplace esgotado'}
            />
          )}
        </Stack>
      </Stack>
      <Typography sx={{ mt: 1 }}>
        <strong>{order.customerName}</strong>
        {order.customerPhone ? ` · ${order.customerPhone}` : ''}
      </Typography>
      {order.address && <Typography variant="body2">{order.address}</Typography>}
      <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
        {order.items.map((item) => (
          <ItemLine key={item.index} order={order} item={item} canMap={canAct && waiting} show={show} />
        ))}
      </Box>
      <Typography variant="body2">
        Itens {formatCents(order.subtotalCents)} · Entrega {formatCents(order.deliveryFeeCents)}
        {order.feesCents > 0 ? ` · Taxas ${formatCents(order.feesCents)}` : ''}
        {order.discountCents > 0 ? ` · Desconto ${formatCents(order.discountCents)}` : ''}
      </Typography>
      <Typography sx={{ fontWeight: 600 }}>
        Total {formatCents(order.totalCents)}
        {order.prepaidCents > 0 ? ` · Pago online ${formatCents(order.prepaidCents)}` : ''}
        {order.pendingCents > 0 ? ` · Cobrar na entrega ${formatCents(order.pendingCents)}` : ''}
      </Typography>
      {order.problem && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {order.problem}
        </Alert>
      )}
      {order.cancellationRequested && (
        <Alert
          severity="error"
          sx={{ mt: 1 }}
          action={
            canAct && (
              <Stack direction="row" spacing={1}>
                <Button
                  color="inherit"
                  size="small"
                  disabled={answer.isPending}
                  onClick={() =>
                    answer.mutate(
                      { params: { id: order.id }, body: { accept: true } },
                      { onError: fail('Não foi possível') },
                    )
                  }
                >
                  Aceitar cancelamento
                </Button>
                <Button
                  color="inherit"
                  size="small"
                  disabled={answer.isPending}
                  onClick={() =>
                    answer.mutate(
                      { params: { id: order.id }, body: { accept: false } },
                      { onError: fail('Não foi possível') },
                    )
                  }
                >
                  Negar
                </Button>
              </Stack>
            )
          }
        >
          O cliente pediu o cancelamento deste pedido.
        </Alert>
      )}
      {canAct && waiting && (
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <Button
            variant="contained"
            disabled={unmapped || confirm.isPending}
            onClick={() =>
              confirm.mutate(
                { params: { id: order.id } },
                {
                  onSuccess: (done) =>
                    show({
                      severity: 'success',
                      title: `Pedido ${title} confirmado: venda nº ${done.saleNumber} no painel de entregas`,
                    }),
                  onError: fail('Não foi possível confirmar'),
                },
              )
            }
          >
            {confirm.isPending ? 'Confirmando...' : 'Confirmar'}
          </Button>
          <Button
            color="error"
            disabled={reject.isPending}
            onClick={() =>
              reject.mutate({ params: { id: order.id } }, { onError: fail('Não foi possível recusar') })
            }
          >
            Recusar
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

/**
 * The marketplace inbox (issue 35): orders from iFood and Open Delivery apps waiting for a
 * confirmation (with the marketplace's deadline) or for their items to be mapped to products; a
 * confirmed order moves to the delivery panel. A new order sounds and rings the bell.
 */
export default function MarketplaceInboxPage() {
  const { user } = useSession();
  const canAct = Boolean(user && can(user.userType.id, WRITE.delivery));
  const orders = useMarketplaceOrders('open');
  const now = useNow(1000);
  const sound = useSoundBlocked();
  const feedback = useFeedback();
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!orders.data) return;
    const ids = orders.data.orders.map((o) => o.id);
    if (seen.current && ids.some((id) => !seen.current?.has(id))) playNewOrderSound();
    seen.current = new Set([...(seen.current ?? []), ...ids]);
  }, [orders.data]);

  if (orders.isPending) return <Loading />;
  if (orders.isError)
    return (
      <LoadError what="os pedidos de marketplace" error={orders.error} onRetry={() => orders.refetch()} />
    );
  const list = orders.data.orders;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="h5" component="h1">
          Pedidos de marketplace
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" component={RouterLink} to="/dashboard/sale/delivery">
            Painel de entregas
          </Button>
        </Stack>
      </Stack>
      {sound.blocked && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void sound.enable()}>
              Ativar som
            </Button>
          }
        >
          O navegador bloqueou o som de novos pedidos. Clique em Ativar som para ouvir quando chegar um
          pedido.
        </Alert>
      )}
      {list.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <Typography>Nenhum pedido aguardando</Typography>
          <Typography variant="body2" color="text.secondary">
            Os pedidos do iFood e dos aplicativos Open Delivery aparecem aqui assim que chegam.
          </Typography>
        </Paper>
      ) : (
        list.map((order) => (
          <OrderCard key={order.id} order={order} now={now} canAct={canAct} show={feedback.show} />
        ))
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}
