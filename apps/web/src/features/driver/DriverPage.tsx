import {
  DELIVERY_FAILURE_REASONS,
  type DeliveryOrder,
  type DriverList,
  deliveryDeliverSchema,
  deliveryFailSchema,
  REOPEN_MINUTES,
} from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { can, TAKES_DELIVERIES } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Link as RouterLink, useLocation } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatTime } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import {
  addressLine,
  canChargeOrderPix,
  type OrderAction,
  OrderCard,
  OrderPixDialog,
  useDriverOrders,
  useNow,
  useOrderAction,
  useShiftAction,
} from '../delivery/index.ts';

const TABS: { list: DriverList; label: string; partner: boolean }[] = [
  { list: 'available', label: 'Disponíveis', partner: false },
  { list: 'awaiting-collection', label: 'Coleta', partner: true },
  { list: 'in-transit', label: 'Em trânsito', partner: true },
  { list: 'delivered', label: 'Entregues', partner: true },
];

const EMPTY: Record<DriverList, string> = {
  available: 'Nenhum pedido disponível agora.',
  'awaiting-collection': 'Nenhum pedido aguardando coleta.',
  'in-transit': 'Nenhum pedido em trânsito.',
  delivered: 'Nenhuma entrega hoje.',
};

/** The phone number for wa.me / tel links: digits, with Brazil's 55 when missing. */
function phoneDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.startsWith('55') && digits.length > 11 ? digits : `55${digits}`;
}

/** The driver area (390 px first): one page per list, top tabs between them, the shift on top. */
export default function DriverPage() {
  const { pathname } = useLocation();
  const list = (TABS.find((t) => pathname.endsWith(`/${t.list}`))?.list ??
    'awaiting-collection') as DriverList;
  const { user } = useSession();
  const takes = can(user?.userType.id, TAKES_DELIVERIES);
  const tabs = TABS.filter((t) => takes || t.partner);
  const narrow = useMediaQuery('(max-width:599.95px)');
  const orders = useDriverOrders(list);
  const action = useOrderAction();
  const shift = useShiftAction();
  const feedback = useFeedback();
  const now = useNow(30_000);
  const [delivering, setDelivering] = useState<DeliveryOrder | null>(null);
  const [charging, setCharging] = useState<DeliveryOrder | null>(null);
  const [failing, setFailing] = useState<DeliveryOrder | null>(null);

  const run = (a: OrderAction, done: string, after?: () => void) =>
    action.mutate(a, {
      onSuccess: () => {
        feedback.show({ severity: 'success', title: done });
        after?.();
      },
      onError: (e) =>
        feedback.show({ severity: 'error', title: 'Não foi possível', message: errorMessage(e) }),
    });

  const actionsOf = (o: DeliveryOrder) => {
    if (list === 'available')
      return (
        <Button
          fullWidth
          size="large"
          variant="contained"
          onClick={() => run({ id: o.id, action: 'take' }, 'Pedido aceito')}
        >
          Aceitar
        </Button>
      );
    if (list === 'awaiting-collection')
      return (
        <Button
          fullWidth
          size="large"
          variant="contained"
          onClick={() => run({ id: o.id, action: 'pickup' }, 'Coleta confirmada: boa entrega!')}
        >
          Confirmar coleta
        </Button>
      );
    if (list === 'in-transit') {
      const phone = o.customerPhone ? phoneDigits(o.customerPhone) : null;
      return (
        <Stack spacing={1} sx={{ width: '100%' }}>
          <Stack direction="row" spacing={1}>
            <Button
              fullWidth
              variant="outlined"
              href={`https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(addressLine(o))}`}
              target="_blank"
              rel="noopener"
            >
              Mapa
            </Button>
            {phone && (
              <Button fullWidth variant="outlined" href={`tel:+${phone}`}>
                Ligar
              </Button>
            )}
            {phone && (
              <Button
                fullWidth
                variant="outlined"
                href={`https://wa.me/${phone}`}
                target="_blank"
                rel="noopener"
              >
                WhatsApp
              </Button>
            )}
          </Stack>
          {/* Issue 33: the customer pays by Pix QR dinâmico at the door instead of cash or card. */}
          {canChargeOrderPix(o) && (
            <Button fullWidth variant="outlined" onClick={() => setCharging(o)}>
              Cobrar com Pix QR
            </Button>
          )}
          <Stack direction="row" spacing={1}>
            <Button
              fullWidth
              size="large"
              variant="contained"
              color="success"
              onClick={() => setDelivering(o)}
            >
              Entregar
            </Button>
            <Button fullWidth size="large" variant="outlined" color="error" onClick={() => setFailing(o)}>
              Não entregue
            </Button>
          </Stack>
        </Stack>
      );
    }
    const reopenable =
      !o.settled &&
      o.finishedAt &&
      now.getTime() - new Date(o.finishedAt).getTime() < REOPEN_MINUTES * 60_000;
    return reopenable ? (
      <Button
        size="small"
        onClick={() => run({ id: o.id, action: 'reopen' }, 'Pedido reaberto: está em trânsito de novo')}
      >
        Reabrir
      </Button>
    ) : undefined;
  };

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Paper variant="outlined" sx={{ mb: 1 }}>
        {/* A phone (issue 30 item 21): the tabs scroll with their whole labels instead of squeezing. */}
        <Tabs
          value={list}
          variant={narrow ? 'scrollable' : 'fullWidth'}
          scrollButtons={narrow ? 'auto' : false}
          allowScrollButtonsMobile
          aria-label="Listas do entregador"
        >
          {tabs.map((t) => (
            <Tab
              key={t.list}
              value={t.list}
              label={t.label}
              component={RouterLink}
              to={`/dashboard/driver/${t.list}`}
              sx={{ minWidth: 0, px: narrow ? 1.5 : 0.5, whiteSpace: 'nowrap' }}
            />
          ))}
        </Tabs>
      </Paper>
      {orders.data && (
        <Paper variant="outlined" sx={{ p: 1.5, mb: 2, display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography sx={{ flex: 1 }}>
            {orders.data.shift.onShift && orders.data.shift.startedAt
              ? `Em turno desde ${formatTime(orders.data.shift.startedAt)}`
              : 'Fora de turno'}
          </Typography>
          <Button
            variant={orders.data.shift.onShift ? 'outlined' : 'contained'}
            disabled={shift.isPending}
            onClick={() =>
              shift.mutate(orders.data.shift.onShift ? 'check-out' : 'check-in', {
                onError: (e) =>
                  feedback.show({ severity: 'error', title: 'Não foi possível', message: errorMessage(e) }),
              })
            }
          >
            {orders.data.shift.onShift ? 'Encerrar turno' : 'Iniciar turno'}
          </Button>
        </Paper>
      )}
      {orders.isPending ? (
        <Loading />
      ) : orders.isError ? (
        <LoadError what="os pedidos" error={orders.error} onRetry={() => orders.refetch()} />
      ) : (
        <Stack spacing={1.5}>
          {list === 'delivered' && (
            <Paper variant="outlined" sx={{ p: 1.5 }} aria-label="Totais do dia">
              <Typography variant="subtitle1" component="h2">
                Hoje: {plural(orders.data.totals.count, 'entrega', 'entregas')}
              </Typography>
              <Typography variant="body2">
                Recebido na entrega: {formatCents(orders.data.totals.collectedCents)}
              </Typography>
              <Typography variant="body2">
                Taxas ganhas: {formatCents(orders.data.totals.feesCents)}
              </Typography>
            </Paper>
          )}
          {list === 'available' && !orders.data.shift.onShift && (
            <Alert severity="info">Inicie o turno para aceitar pedidos.</Alert>
          )}
          {orders.data.orders.length === 0 && <Typography color="text.secondary">{EMPTY[list]}</Typography>}
          {orders.data.orders.map((o) => (
            <OrderCard key={o.id} order={o} now={now} actions={actionsOf(o)} />
          ))}
        </Stack>
      )}
      {charging && (
        <OrderPixDialog key={`pix-${charging.id}`} order={charging} onClose={() => setCharging(null)} />
      )}
      {delivering && (
        <DeliverDialog
          key={`deliver-${delivering.id}`}
          order={delivering}
          onClose={() => setDelivering(null)}
          onDone={(title) => {
            setDelivering(null);
            feedback.show({ severity: 'success', title });
          }}
        />
      )}
      {failing && (
        <FailDialog
          key={`fail-${failing.id}`}
          order={failing}
          onClose={() => setFailing(null)}
          onDone={(title) => {
            setFailing(null);
            feedback.show({ severity: 'success', title });
          }}
        />
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}

/** The code dialog on the form kit (issue 30 item 21): a wrong code shows under the field. */
function DeliverDialog({
  order,
  onClose,
  onDone,
}: {
  order: DeliveryOrder;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const action = useOrderAction();
  const form = useAppForm({ schema: deliveryDeliverSchema, defaultValues: { code: '' } });
  const code = useWatch({ control: form.control, name: 'code' });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="deliver-order-title">
      <Form
        form={form}
        onSubmit={async (body) => {
          await action.mutateAsync({ id: order.id, action: 'deliver', body });
          onDone('Entrega confirmada');
        }}
      >
        <DialogTitle id="deliver-order-title">Entregar pedido nº {order.saleNumber}</DialogTitle>
        <DialogContent>
          {order.collectCents > 0 && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              Receba {formatCents(order.collectCents)} antes de entregar.
            </Alert>
          )}
          <FormTextField
            control={form.control}
            name="code"
            autoFocus
            label="Código de entrega"
            helperText="Peça ao cliente os 4 dígitos (por padrão, os 4 últimos do telefone)"
            mask={(text) => text.replace(/\D/g, '').slice(0, 4)}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 4 } }}
            sx={{ mt: 1 }}
          />
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton color="success" busyLabel="Confirmando..." disabled={code.length !== 4}>
            Confirmar entrega
          </SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** The reason dialog on the form kit: a refusal (the order moved) shows in the dialog. */
function FailDialog({
  order,
  onClose,
  onDone,
}: {
  order: DeliveryOrder;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const action = useOrderAction();
  const form = useAppForm({ schema: deliveryFailSchema, defaultValues: { reason: '' } });
  const reason = useWatch({ control: form.control, name: 'reason' });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="fail-order-title">
      <Form
        form={form}
        onSubmit={async (body) => {
          await action.mutateAsync({ id: order.id, action: 'fail', body });
          onDone('Entrega não realizada registrada');
        }}
      >
        <DialogTitle id="fail-order-title">Não entregue - pedido nº {order.saleNumber}</DialogTitle>
        <DialogContent>
          <Controller
            control={form.control}
            name="reason"
            render={({ field }) => (
              <RadioGroup
                value={field.value}
                onChange={(e) => field.onChange(e.target.value)}
                aria-label="Motivo"
              >
                {DELIVERY_FAILURE_REASONS.map((r) => (
                  <FormControlLabel key={r} value={r} control={<Radio />} label={r} />
                ))}
              </RadioGroup>
            )}
          />
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton color="error" busyLabel="Registrando..." disabled={!reason}>
            Registrar
          </SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
