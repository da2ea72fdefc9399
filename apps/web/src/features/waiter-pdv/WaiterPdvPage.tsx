import { COMANDA_STAGE_LABELS, type Comanda, type ComandaCard } from '@balcao/core/comanda';
import { comandaApi } from '@balcao/core/endpoints/comanda';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { can, NOT_MKT } from '@balcao/core/routes';
import { percentText } from '@balcao/core/settings';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { queryOf } from '../../lib/client.ts';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';
import { invalidateResources } from '../../lib/queryKeys.ts';
import { useSession } from '../auth/index.ts';
import { AddItem, OpenComandaForm, STAGE_COLOR, useBoard, useComanda } from '../comanda/index.ts';
import { isOffline, type LocalCatalog, onOnline, useOfflineStore } from '../offline/index.ts';
import { useKeptQuery } from './kept.ts';
import { useOutbox } from './queue.ts';

/**
 * The shop's products on the phone (the PDV's local copy, issue 30): brought up to date when the page
 * opens online and when the connection returns, so the search, the category chips and a product's
 * required choices work offline.
 */
function useLocalCatalog(clientId: number, userId: number): LocalCatalog | undefined {
  const store = useOfflineStore(clientId, userId);
  useEffect(() => {
    if (!store) return;
    let running = false;
    const run = async () => {
      if (running) return;
      running = true;
      try {
        await store.catalog.sync();
        await store.catalog.load();
      } catch {
        // Offline again or the server busy: the next trigger tries again.
      } finally {
        running = false;
      }
    };
    if (!isOffline()) void run();
    return onOnline(() => void run());
  }, [store]);
  return store?.catalog;
}

/**
 * /dashboard/sale/waiter-pdv: the waiter's phone, one hand. Pick a tab (or open one), add items
 * fast (favourites and categories first, search, note), send to production, ask for the bill.
 * Everything typed goes through the outbox (queue.ts): sent at once when online, kept and sent once
 * when the connection returns.
 */
export default function WaiterPdvPage() {
  const { user } = useSession();
  if (!user) return <Loading />;
  if (!can(user.userType.id, NOT_MKT)) {
    return <Alert severity="info">Seu perfil não usa comandas. Use o PDV para vender.</Alert>;
  }
  return <WaiterPdv userId={user.id} clientId={user.client.id} />;
}

function WaiterPdv({ userId, clientId }: { userId: number; clientId: number }) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number | null>(() =>
    loadPersisted<number | null>('waiterTab', null),
  );
  const [mine, setMine] = useState(true);
  const [opening, setOpening] = useState(false);
  const catalog = useLocalCatalog(clientId, userId);
  const waiterId = mine ? userId : undefined;
  useKeptQuery(
    queryOf(comandaApi.board, { query: { waiterId: waiterId ? String(waiterId) : undefined } }).queryKey,
    `waiterKept:${userId}:board:${mine ? 'mine' : 'all'}`,
  );
  useKeptQuery(queryOf(comandaApi.menu).queryKey, `waiterKept:${userId}:menu`);
  const board = useBoard(waiterId);
  const outbox = useOutbox(userId, () => void invalidateResources(queryClient, ['comanda']));
  const select = (id: number | null) => {
    savePersisted('waiterTab', id);
    setSelected(id);
  };

  const banner = (
    <>
      {!outbox.online && (
        <Alert severity="warning" icon={<CloudOffIcon />} data-testid="offline-banner">
          Sem conexão: os pedidos ficam guardados e são enviados quando a conexão voltar.
        </Alert>
      )}
      {outbox.ops.length > 0 && (
        <Alert severity="info" data-testid="outbox">
          {plural(outbox.ops.length, 'pedido na fila', 'pedidos na fila')}
        </Alert>
      )}
      {outbox.failed && (
        <Alert severity="error" onClose={outbox.clearFailed}>
          {outbox.failed}
        </Alert>
      )}
    </>
  );

  // The profile may use comandas (checked above): a refusal is the shop's comanda switch being off,
  // told by the server's message.
  if (board.isError && board.error instanceof ApiError && board.error.code === 'forbidden') {
    return <Alert severity="info">{errorMessage(board.error)}</Alert>;
  }

  if (selected !== null) {
    return (
      <Stack sx={{ gap: 1.5, maxWidth: 560, mx: 'auto', pb: 18 }}>
        {banner}
        <TabScreen
          id={selected}
          clientId={clientId}
          userId={userId}
          catalog={catalog}
          onBack={() => select(null)}
          outbox={outbox}
        />
      </Stack>
    );
  }

  const tabs = board.data?.tabs ?? [];
  return (
    <Stack sx={{ gap: 1.5, maxWidth: 560, mx: 'auto' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography component="h1" variant="h5">
          PDV Garçom
        </Typography>
        <Button variant="contained" size="large" onClick={() => setOpening(true)}>
          Nova comanda
        </Button>
      </Stack>
      {banner}
      <ToggleButtonGroup
        exclusive
        fullWidth
        size="small"
        value={mine ? 'mine' : 'all'}
        onChange={(_, v) => v && setMine(v === 'mine')}
        aria-label="Comandas a mostrar"
      >
        <ToggleButton value="mine">Minhas</ToggleButton>
        <ToggleButton value="all">Todas</ToggleButton>
      </ToggleButtonGroup>
      {board.isPending ? (
        <Loading />
      ) : tabs.length === 0 ? (
        <Alert severity="info">Nenhuma comanda aberta{mine ? ' sua' : ''}.</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))' }}>
          {tabs.map((t) => (
            <TabButton key={t.id} tab={t} onClick={() => select(t.id)} />
          ))}
        </Box>
      )}
      <Dialog open={opening} onClose={() => setOpening(false)} fullWidth>
        <DialogTitle>Nova comanda</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <OpenComandaForm
              dense
              onOpened={(id) => {
                setOpening(false);
                select(id);
              }}
            />
          </Box>
        </DialogContent>
      </Dialog>
    </Stack>
  );
}

/**
 * The tab's figures as the waiter tells the table (issue 30): the items, the service fee named with
 * its percent (never folded into the total silently), the couvert, the total, and after a partial
 * payment what was paid and what is left.
 */
function WaiterTotals({ totals, people }: { totals: Comanda['totals']; people: number }) {
  const row = (label: string, cents: number, strong = false) => (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400 }}>
        {formatCents(cents)}
      </Typography>
    </Stack>
  );
  return (
    <Box sx={{ mt: 1, pt: 1, borderTop: 1, borderColor: 'divider' }} data-testid="waiter-totals">
      {row('Itens', totals.itemsCents)}
      {totals.serviceFeeCents > 0 &&
        row(`Serviço (${percentText(totals.serviceFeePercent)})`, totals.serviceFeeCents)}
      {totals.couvertCents > 0 && row(`Couvert (${people})`, totals.couvertCents)}
      {row('Total', totals.totalCents, true)}
      {totals.paidCents > 0 && (
        <>
          {row('Pago', totals.paidCents)}
          {row('Falta', totals.remainingCents, true)}
        </>
      )}
    </Box>
  );
}

function TabButton({ tab, onClick }: { tab: ComandaCard; onClick: () => void }) {
  return (
    <Button
      variant="outlined"
      color={STAGE_COLOR[tab.stage]}
      onClick={onClick}
      sx={{ flexDirection: 'column', minHeight: 84, textTransform: 'none' }}
      aria-label={`Comanda ${tab.number}${tab.tableLabel ? ` mesa ${tab.tableLabel}` : ''}`}
    >
      <Typography variant="h5" component="span" sx={{ fontWeight: 700 }}>
        {tab.number}
      </Typography>
      <Typography variant="caption" component="span">
        {tab.tableLabel ? `Mesa ${tab.tableLabel}` : COMANDA_STAGE_LABELS[tab.stage]}
      </Typography>
    </Button>
  );
}

function TabScreen({
  id,
  clientId,
  userId,
  catalog,
  onBack,
  outbox,
}: {
  id: number;
  clientId: number;
  userId: number;
  catalog: LocalCatalog | undefined;
  onBack: () => void;
  outbox: ReturnType<typeof useOutbox>;
}) {
  useKeptQuery(queryOf(comandaApi.get, { params: { id } }).queryKey, `waiterKept:${userId}:tab:${id}`);
  const comanda = useComanda(id);
  const [added, setAdded] = useState<string | null>(null);
  const tab = comanda.data;
  const queued = outbox.ops.filter((o) => o.comandaId === id);
  // Offline, a failed refetch leaves the tab as last seen on screen (kept across a reload).
  if (comanda.isError && !tab) {
    return (
      <>
        <Alert severity="error">{errorMessage(comanda.error)}</Alert>
        <Button onClick={onBack}>Voltar</Button>
      </>
    );
  }
  if (!tab) return <Loading />;
  if (tab.status !== 'active') {
    return (
      <>
        <Alert severity="info">
          {tab.status === 'canceled' ? 'Esta comanda foi cancelada.' : 'Esta comanda foi fechada.'}
        </Alert>
        <Button onClick={onBack}>Voltar</Button>
      </>
    );
  }
  const unsent = tab.lines.filter((l) => l.status === 'active' && l.sentAt === null).length;
  const queuedAdds = queued.filter((o) => o.kind === 'add');
  const notPrinted = tab.sends
    .flatMap((s) => s.jobs)
    .filter((j) => j.status === 'failed' || j.status === 'unconfirmed');
  // Issue 35: the tickets the kitchen display bumped, live (the socket refetches the tab).
  const ready = tab.sends.flatMap((s) => s.jobs).filter((j) => j.readyAt !== null && j.reprintOf === null);
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
        <IconButton aria-label="Voltar às comandas" onClick={onBack} size="large">
          <ArrowBackIcon />
        </IconButton>
        <Typography component="h1" variant="h6" sx={{ fontWeight: 700, flex: 1 }}>
          Comanda {tab.number}
          {tab.tableLabel ? ` · Mesa ${tab.tableLabel}` : ''}
        </Typography>
        <Chip size="small" color={STAGE_COLOR[tab.stage]} label={COMANDA_STAGE_LABELS[tab.stage]} />
      </Stack>
      {notPrinted.length > 0 && (
        <Alert severity="warning">
          Ticket não impresso: {notPrinted.map((j) => j.title).join(', ')}. Avise o caixa ou reenvie pela
          comanda.
        </Alert>
      )}
      {ready.length > 0 && <Alert severity="success">Pronto: {ready.map((j) => j.title).join(', ')}</Alert>}
      {added && (
        <Alert severity="success" onClose={() => setAdded(null)}>
          {added}
        </Alert>
      )}
      <AddItem
        clientId={clientId}
        catalog={catalog}
        onAdd={({ description, ...line }) => {
          outbox.enqueue({ kind: 'add', comandaId: id, comandaNumber: tab.number, line, description });
          setAdded(`${line.quantity} x ${description} adicionado`);
        }}
      />
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Typography variant="subtitle2">Pedido</Typography>
        {tab.lines.length === 0 && queuedAdds.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            Nenhum item ainda.
          </Typography>
        )}
        {tab.lines
          .filter((l) => l.status === 'active')
          .map((l) => (
            <Stack
              key={l.id}
              direction="row"
              sx={{ justifyContent: 'space-between', py: 0.5, gap: 1 }}
              data-testid="waiter-line"
            >
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2">
                  {l.quantity} x {l.description}
                  {l.variantName ? ` (${l.variantName})` : ''}
                </Typography>
                {l.additionals.map((a) => (
                  <Typography key={a.id} variant="caption" component="p" color="text.secondary">
                    + {a.quantity > 1 ? `${a.quantity} ` : ''}
                    {a.name}
                    {a.priceCents > 0 ? ` (${formatCents(a.priceCents * a.quantity)})` : ''}
                  </Typography>
                ))}
                {l.notes && (
                  <Typography variant="caption" component="p" color="text.secondary">
                    Obs.: {l.notes}
                  </Typography>
                )}
                <Typography variant="caption" color={l.sentAt ? 'success.main' : 'warning.main'}>
                  {l.sentAt ? 'Enviado' : 'Não enviado'}
                </Typography>
              </Box>
              <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {formatCents(l.totalCents)}
              </Typography>
            </Stack>
          ))}
        {queuedAdds.map((o) => (
          <Stack key={o.key} direction="row" sx={{ justifyContent: 'space-between', py: 0.5 }}>
            <Typography variant="body2">
              {o.kind === 'add' ? `${o.line.quantity} x ${o.description}` : ''}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              Na fila
            </Typography>
          </Stack>
        ))}
        <WaiterTotals totals={tab.totals} people={tab.people} />
      </Paper>
      <Paper
        elevation={8}
        sx={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: { xs: 56, md: 0 },
          p: 1,
          display: 'flex',
          gap: 1,
          zIndex: (theme) => theme.zIndex.appBar,
        }}
      >
        <Button
          variant="contained"
          size="large"
          sx={{ flex: 2, minHeight: 52 }}
          disabled={unsent + queuedAdds.length === 0 || queued.some((o) => o.kind === 'send')}
          onClick={() => outbox.enqueue({ kind: 'send', comandaId: id, comandaNumber: tab.number })}
        >
          Enviar para produção{unsent + queuedAdds.length > 0 ? ` (${unsent + queuedAdds.length})` : ''}
        </Button>
        <Button
          variant="outlined"
          size="large"
          sx={{ flex: 1, minHeight: 52 }}
          disabled={tab.stage !== 'open'}
          onClick={() => outbox.enqueue({ kind: 'bill', comandaId: id, comandaNumber: tab.number })}
        >
          Pedir conta
        </Button>
      </Paper>
    </>
  );
}
