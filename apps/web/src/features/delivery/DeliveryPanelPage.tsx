import {
  DELIVERY_ORIGIN_LABELS,
  DELIVERY_ORIGINS,
  DELIVERY_STATUS_LABELS,
  type DeliveryOrder,
  type DeliveryOrigin,
  type DeliveryStatus,
} from '@balcao/core/delivery';
import { ACTION, can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { recordOptions, SelectFilter } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import {
  type OrderAction,
  type PanelFilters,
  useDeliveryPanel,
  useOrderAction,
  usePrintOrder,
  useSaveDeliverySettings,
} from './api.ts';
import { OrderCard } from './OrderCard.tsx';
import { AssignDialog, CancelOrderDialog } from './OrderDialogs.tsx';
import { canChargeOrderPix, OrderPixDialog } from './OrderPixDialog.tsx';
import { playNewOrderSound, useNow, useSoundBlocked } from './sound.ts';

const COLUMNS: { title: string; statuses: DeliveryStatus[] }[] = [
  { title: DELIVERY_STATUS_LABELS.pending, statuses: ['pending'] },
  { title: DELIVERY_STATUS_LABELS.waiting, statuses: ['waiting'] },
  { title: DELIVERY_STATUS_LABELS.available, statuses: ['available'] },
  { title: DELIVERY_STATUS_LABELS.accepted, statuses: ['accepted'] },
  { title: DELIVERY_STATUS_LABELS.sending, statuses: ['sending'] },
  { title: 'Finalizados hoje', statuses: ['success', 'failed', 'canceled'] },
];

/** The panel's filters read from the URL (junk reads as no filter). */
function panelFiltersOf(params: URLSearchParams): PanelFilters {
  const driverId = Number(params.get('driverId'));
  const onDelivery = params.get('onDelivery');
  const origin = params.get('origin');
  return {
    driverId: Number.isInteger(driverId) && driverId > 0 ? driverId : undefined,
    neighborhood: params.get('neighborhood') || undefined,
    onDelivery: onDelivery === 'true' ? true : onDelivery === 'false' ? false : undefined,
    origin: DELIVERY_ORIGINS.find((o) => o === origin) as DeliveryOrigin | undefined,
  };
}

/** The delivery panel (/dashboard/sale/delivery): live columns by status, filters, dispatch actions. */
export default function DeliveryPanelPage() {
  const { user } = useSession();
  const userType = user?.userType.id;
  const canDispatch = can(userType, WRITE.delivery);
  // The filters live in the URL: a reload, back/forward and a shared link keep them.
  const { query: filters, update } = useListParams(panelFiltersOf);
  const panel = useDeliveryPanel(filters);
  const action = useOrderAction();
  const saveSettings = useSaveDeliverySettings();
  const printOrder = usePrintOrder();
  const feedback = useFeedback();
  const now = useNow(30_000);
  const sound = useSoundBlocked();
  const [assigning, setAssigning] = useState<DeliveryOrder | null>(null);
  const [canceling, setCanceling] = useState<DeliveryOrder | null>(null);
  const [charging, setCharging] = useState<DeliveryOrder | null>(null);

  // A sound for orders that arrived since the list last showed (live or after a reconnect's refetch).
  const seen = useRef<Set<number> | null>(null);
  useEffect(() => {
    if (!panel.data) return;
    const pending = panel.data.orders.filter((o) => o.status === 'pending').map((o) => o.id);
    if (seen.current && pending.some((id) => !seen.current?.has(id))) playNewOrderSound();
    seen.current = new Set([...(seen.current ?? []), ...panel.data.orders.map((o) => o.id)]);
  }, [panel.data]);

  const run = (a: OrderAction, done: string) =>
    action.mutate(a, {
      onSuccess: () => feedback.show({ severity: 'success', title: done }),
      onError: (e) =>
        feedback.show({ severity: 'error', title: 'Não foi possível', message: errorMessage(e) }),
    });

  if (panel.isPending) return <Loading />;
  if (panel.isError) return <LoadError what="o painel" error={panel.error} onRetry={() => panel.refetch()} />;
  const data = panel.data;
  const hoods = [...new Set(data.orders.map((o) => o.neighborhood).filter(Boolean))].sort();

  const actionsOf = (o: DeliveryOrder) => {
    if (!canDispatch) return undefined;
    // A failed order (issue 30 item 5): out again, to another driver, or canceled with its sale.
    if (o.status === 'failed') {
      return (
        <>
          {!o.settled && (
            <Button
              size="small"
              onClick={() =>
                run(
                  { id: o.id, action: 'status', body: { status: 'available' } },
                  'Pedido liberado para os entregadores',
                )
              }
            >
              Enviar de novo
            </Button>
          )}
          {!o.settled && (
            <Button size="small" onClick={() => setAssigning(o)}>
              Reatribuir
            </Button>
          )}
          <Button size="small" color="error" onClick={() => setCanceling(o)}>
            Cancelar
          </Button>
        </>
      );
    }
    const open = ['pending', 'waiting', 'available', 'accepted', 'sending'].includes(o.status);
    if (!open) return undefined;
    return (
      <>
        {o.status === 'pending' && (
          <Button
            size="small"
            onClick={() =>
              run({ id: o.id, action: 'status', body: { status: 'waiting' } }, 'Pedido em preparo')
            }
          >
            Preparar
          </Button>
        )}
        {(o.status === 'pending' || o.status === 'waiting') && (
          <Button
            size="small"
            onClick={() =>
              run(
                { id: o.id, action: 'status', body: { status: 'available' } },
                o.marketplaceCourier
                  ? `Pedido pronto: o entregador do ${o.marketplaceCourier} vem buscar`
                  : 'Pedido liberado para os entregadores',
              )
            }
          >
            {/* Issue 35: the marketplace's courier collects it; the shop only says it is ready. */}
            {o.marketplaceCourier ? 'Pronto' : 'Liberar'}
          </Button>
        )}
        {o.status !== 'sending' && !o.marketplaceCourier && (
          <Button size="small" onClick={() => setAssigning(o)}>
            {o.driver ? 'Reatribuir' : 'Atribuir entregador'}
          </Button>
        )}
        <Button
          size="small"
          onClick={() =>
            printOrder
              .mutateAsync({ params: { id: o.id }, body: { idempotencyKey: newIdempotencyKey() } })
              .then(() => feedback.show({ severity: 'success', title: 'Pedido enviado para impressão' }))
              .catch((e) =>
                feedback.show({
                  severity: 'error',
                  title: 'Não foi possível imprimir',
                  message: errorMessage(e),
                }),
              )
          }
        >
          Imprimir
        </Button>
        {canChargeOrderPix(o) && (
          <Button size="small" onClick={() => setCharging(o)}>
            Cobrar com Pix
          </Button>
        )}
        <Button size="small" color="error" onClick={() => setCanceling(o)}>
          Cancelar
        </Button>
      </>
    );
  };

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1}
        sx={{ mb: 2, justifyContent: 'space-between' }}
      >
        <Typography variant="h5" component="h1">
          Delivery
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
          {canDispatch && (
            <Button variant="contained" component={RouterLink} to="/dashboard/sale/delivery/new">
              Novo pedido
            </Button>
          )}
          {canDispatch && (
            <Button variant="outlined" component={RouterLink} to="/dashboard/sale/delivery/settlement">
              Acerto de entregadores
            </Button>
          )}
        </Stack>
      </Stack>

      {sound.blocked && (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
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
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }} aria-label="Contadores">
        {COLUMNS.slice(0, 5).map((c) => (
          <Chip key={c.title} label={`${c.title}: ${data.counters[c.statuses[0]]}`} />
        ))}
        <Chip color="success" label={`Entregues: ${data.counters.success}`} />
        <Chip color="primary" variant="outlined" label={`Entregadores em turno: ${data.driversOnShift}`} />
      </Stack>

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
        <SelectFilter
          size="small"
          label="Entregador"
          value={filters.driverId}
          options={recordOptions(data.drivers)}
          onChange={(driverId) => update({ driverId })}
          sx={{ minWidth: 200 }}
        />
        <SelectFilter
          size="small"
          label="Bairro"
          value={filters.neighborhood}
          options={[...new Set([...hoods, ...(filters.neighborhood ? [filters.neighborhood] : [])])].map(
            (h) => ({
              value: h,
              label: h,
            }),
          )}
          onChange={(neighborhood) => update({ neighborhood })}
          sx={{ minWidth: 200 }}
        />
        <SelectFilter
          size="small"
          label="Origem"
          value={filters.origin}
          options={DELIVERY_ORIGINS.map((o) => ({ value: o, label: DELIVERY_ORIGIN_LABELS[o] }))}
          onChange={(origin) => update({ origin })}
          sx={{ minWidth: 180 }}
        />
        <TextField
          select
          size="small"
          label="Pagamento na entrega"
          value={filters.onDelivery === undefined ? '' : String(filters.onDelivery)}
          onChange={(e) => update({ onDelivery: e.target.value === '' ? undefined : e.target.value })}
          // The label sits above "Todos" (issue 30 item 21: it was cut inside the empty field).
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">Todos</MenuItem>
          <MenuItem value="true">Sim</MenuItem>
          <MenuItem value="false">Não (pago)</MenuItem>
        </TextField>
        {can(userType, WRITE.settings) && (
          <FormControlLabel
            control={
              <Switch
                checked={data.notifyCustomer}
                onChange={(e) =>
                  saveSettings.mutate({
                    body: { notifyCustomer: e.target.checked, acceptOutsideHours: data.acceptOutsideHours },
                  })
                }
                disabled={saveSettings.isPending}
              />
            }
            label="Avisar o cliente por WhatsApp (saiu para entrega, entregue)"
          />
        )}
        {can(userType, WRITE.settings) && (
          <FormControlLabel
            control={
              <Switch
                checked={data.acceptOutsideHours}
                onChange={(e) =>
                  saveSettings.mutate({
                    body: { notifyCustomer: data.notifyCustomer, acceptOutsideHours: e.target.checked },
                  })
                }
                disabled={saveSettings.isPending}
              />
            }
            label="Aceitar pedidos fora do horário (com aviso)"
          />
        )}
      </Stack>

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            md: 'repeat(3, minmax(0, 1fr))',
            xl: 'repeat(6, minmax(0, 1fr))',
          },
        }}
      >
        {COLUMNS.map((column) => {
          const orders = data.orders.filter((o) => column.statuses.includes(o.status));
          return (
            <Paper
              key={column.title}
              variant="outlined"
              component="section"
              aria-label={column.title}
              sx={{ p: 1, bgcolor: 'action.hover', minHeight: { xs: 0, md: 120 } }}
            >
              <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
                {column.title} ({orders.length})
              </Typography>
              <Stack spacing={1}>
                {orders.map((o) => (
                  <OrderCard key={o.id} order={o} now={now} actions={actionsOf(o)} />
                ))}
              </Stack>
            </Paper>
          );
        })}
      </Box>

      {assigning && (
        <AssignDialog
          key={`assign-${assigning.id}`}
          order={assigning}
          drivers={data.drivers}
          onClose={() => setAssigning(null)}
          onDone={(title) => {
            setAssigning(null);
            feedback.show({ severity: 'success', title });
          }}
        />
      )}
      {canceling && (
        <CancelOrderDialog
          key={`cancel-${canceling.id}`}
          order={canceling}
          needsApproval={!can(userType, ACTION.approve)}
          onClose={() => setCanceling(null)}
          onDone={(title) => {
            setCanceling(null);
            feedback.show({ severity: 'success', title });
          }}
        />
      )}
      {charging && (
        <OrderPixDialog key={`pix-${charging.id}`} order={charging} onClose={() => setCharging(null)} />
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}
