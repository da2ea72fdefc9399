import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatTime } from '../../lib/format.ts';
import { useApproveTableOrder, useRejectTableOrder, useTableOrders } from './api.ts';

/** The comanda board's table orders (QR menu) waiting for a waiter's approval, live through the socket. */
export function TableOrdersPanel() {
  const orders = useTableOrders();
  const approve = useApproveTableOrder();
  const reject = useRejectTableOrder();
  if (!orders.data || orders.data.length === 0) return null;
  const error = approve.error ?? reject.error;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Pedidos das mesas">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Pedidos das mesas (QR Code)
      </Typography>
      {error && <Alert severity="error">{error.message}</Alert>}
      <Stack spacing={1}>
        {orders.data.map((order) => (
          <Stack
            key={order.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' } }}
            data-testid={`table-order-${order.id}`}
          >
            <Typography sx={{ flex: 1 }}>
              <strong>Mesa {order.tableLabel}</strong> · {formatTime(order.createdAt)} ·{' '}
              {order.lines
                .map(
                  (l) =>
                    `${l.quantity} x ${l.description}${l.additionals.length ? ` + ${l.additionals.join(', ')}` : ''}${l.notes ? ` (${l.notes})` : ''}`,
                )
                .join(', ')}
            </Typography>
            <Button
              variant="contained"
              disabled={approve.isPending}
              onClick={() => approve.mutate({ params: { id: order.id } })}
            >
              Aprovar
            </Button>
            <Button
              color="error"
              disabled={reject.isPending}
              onClick={() => reject.mutate({ params: { id: order.id } })}
            >
              Recusar
            </Button>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
