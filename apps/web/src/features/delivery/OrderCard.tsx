import {
  DELIVERY_ORIGIN_LABELS,
  DELIVERY_STATUS_LABELS,
  type DeliveryOrder,
  type Lateness,
  latenessOf,
  ON_DELIVERY_METHOD_LABELS,
  OPEN_DELIVERY_STATUSES,
} from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { formatTime } from '../../lib/format.ts';

const LATENESS_COLORS: Record<Lateness, 'info' | 'warning' | 'error'> = {
  onTime: 'info',
  attention: 'warning',
  late: 'error',
};
const LATENESS_LABELS: Record<Lateness, string> = {
  onTime: 'No prazo',
  attention: 'Atenção',
  late: 'Atrasado',
};

export function addressLine(order: DeliveryOrder): string {
  const a = order.address;
  if (!a) return 'Sem endereço';
  return `${a.street}, ${a.number}${a.complement ? ` - ${a.complement}` : ''} - ${a.neighborhood}, ${a.city}/${a.state}`;
}

/** What to collect on delivery: "Receber R$ 50,00 em Dinheiro · levar troco R$ 50,00", or "Pago" (by Pix). */
function paymentLine(order: DeliveryOrder): string {
  if (order.collectCents === 0) return 'Pago';
  // Issue 33: switched to Pix QR dinâmico and confirmed by the bank: nothing to collect.
  if (order.pixEndToEndId) return `Pago por Pix QR dinâmico (${formatCents(order.collectCents)})`;
  const method = ON_DELIVERY_METHOD_LABELS[order.onDeliveryMethod ?? 'money'];
  const change = order.changeCents > 0 ? ` · levar troco ${formatCents(order.changeCents)}` : '';
  return `Receber ${formatCents(order.collectCents)} em ${method}${change}`;
}

/** One order as a card (panel and driver lists), coloured by lateness while it is open. */
export function OrderCard({ order, now, actions }: { order: DeliveryOrder; now: Date; actions?: ReactNode }) {
  const open = OPEN_DELIVERY_STATUSES.includes(order.status);
  const lateness = latenessOf(order.promisedAt, now);
  const color = open ? LATENESS_COLORS[lateness] : 'success';
  return (
    <Card
      variant="outlined"
      data-testid={`delivery-order-${order.saleNumber}`}
      sx={{ borderLeftWidth: 6, borderLeftColor: `${open ? color : 'divider'}.main` }}
    >
      <CardContent sx={{ pb: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'baseline' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            Pedido nº {order.saleNumber}
          </Typography>
          <Typography variant="subtitle1" sx={{ whiteSpace: 'nowrap' }}>
            {formatCents(order.totalCents)}
          </Typography>
        </Box>
        <Typography variant="body2">{order.customerName ?? 'Sem cliente'}</Typography>
        <Typography variant="body2" color="text.secondary">
          {addressLine(order)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {order.itemsText}
        </Typography>
        <Typography variant="body2" sx={{ mt: 0.5, fontWeight: 500 }}>
          {paymentLine(order)}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 1 }}>
          {open ? (
            <Chip
              size="small"
              color={color}
              label={`${LATENESS_LABELS[lateness]} · até ${formatTime(order.promisedAt)}`}
            />
          ) : (
            <Chip
              size="small"
              color={order.status === 'success' ? 'success' : 'default'}
              label={DELIVERY_STATUS_LABELS[order.status]}
            />
          )}
          {order.driver && <Chip size="small" variant="outlined" label={order.driver.name} />}
          <Chip size="small" variant="outlined" label={`Origem: ${DELIVERY_ORIGIN_LABELS[order.origin]}`} />
          {order.marketplaceCourier && (
            <Chip size="small" color="info" label={`Entrega ${order.marketplaceCourier}`} />
          )}
        </Box>
        {order.failureReason && (
          <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
            Motivo: {order.failureReason}
          </Typography>
        )}
        {order.cancelReason && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Cancelado: {order.cancelReason}
          </Typography>
        )}
      </CardContent>
      {actions && <CardActions sx={{ flexWrap: 'wrap', gap: 1, pt: 0 }}>{actions}</CardActions>}
    </Card>
  );
}
