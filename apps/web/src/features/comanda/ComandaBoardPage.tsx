import {
  COMANDA_STAGE_LABELS,
  type ComandaCard,
  type ComandaStage,
  minutesSince,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { memo, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ListHeader } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useBoard } from './api.ts';

/** The board's colour of each stage (DESIGN: colour plus a label, never colour alone). */
export const STAGE_COLOR: Record<ComandaStage, 'primary' | 'warning' | 'success'> = {
  open: 'primary',
  bill: 'warning',
  payment: 'success',
};

const EDIT = '/dashboard/sale/command/edit';

/** A clock that ticks every 30 s, from the server's time (the device's clock may be wrong). */
function useServerNow(serverNow: string | undefined) {
  const [offset, setOffset] = useState(0);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (serverNow) setOffset(Date.parse(serverNow) - Date.now());
  }, [serverNow]);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  return new Date(Date.now() + offset).toISOString();
}

const TabCard = memo(function TabCard({
  tab,
  now,
  idleMinutes,
}: {
  tab: ComandaCard;
  now: string;
  idleMinutes: number;
}) {
  const since = minutesSince(tab.lastItemAt ?? tab.openedAt, now);
  const idle = since >= idleMinutes;
  const color = STAGE_COLOR[tab.stage];
  return (
    <Card
      variant="outlined"
      data-testid={`comanda-${tab.number}`}
      sx={{ borderLeft: 6, borderLeftColor: `${color}.main`, bgcolor: idle ? 'action.hover' : undefined }}
    >
      <CardActionArea component={RouterLink} to={`${EDIT}/${tab.id}`} sx={{ p: 1.5, height: '100%' }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            {tab.number}
          </Typography>
          <Typography variant="body2">{tab.tableLabel ? `Mesa ${tab.tableLabel}` : 'Sem mesa'}</Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" noWrap>
          {tab.waiter?.name ?? 'Sem garçom'}
          {tab.customerName || tab.customer ? ` · ${tab.customer?.name ?? tab.customerName}` : ''}
        </Typography>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {formatCents(tab.totalCents)}
        </Typography>
        <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
          <Chip size="small" color={color} label={COMANDA_STAGE_LABELS[tab.stage]} />
          <Chip size="small" variant="outlined" label={`${since} min`} title="Minutos desde o último item" />
          {idle && <Chip size="small" color="error" label="Parada" />}
          {tab.unsentCount > 0 && (
            <Chip size="small" color="info" label={plural(tab.unsentCount, 'não enviado', 'não enviados')} />
          )}
        </Stack>
      </CardActionArea>
    </Card>
  );
});

/** /dashboard/sale/command: every open tab, by number, live through the shop's socket. */
export default function ComandaBoardPage() {
  const [waiterId, setWaiterId] = useState<number | ''>('');
  const board = useBoard(waiterId === '' ? undefined : waiterId);
  // Waiters to filter by: the ones serving open tabs (the board has them; no user list is needed).
  const [waiters, setWaiters] = useState<{ id: number; name: string }[]>([]);
  useEffect(() => {
    if (!board.data || waiterId !== '') return;
    const seen = new Map<number, string>();
    for (const t of board.data.tabs) if (t.waiter) seen.set(t.waiter.id, t.waiter.name);
    setWaiters([...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)));
  }, [board.data, waiterId]);
  const now = useServerNow(board.data?.now);
  const tabs = board.data?.tabs ?? [];
  const totals = useMemo(() => tabs.reduce((s, t) => s + t.totalCents, 0), [tabs]);

  return (
    <Box>
      <ListHeader title="Comandas" add={{ to: '/dashboard/sale/command/new', label: 'Abrir comanda' }}>
        <TextField
          select
          size="small"
          label="Garçom"
          value={waiterId}
          onChange={(e) => setWaiterId(e.target.value === '' ? '' : Number(e.target.value))}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">Todos</MenuItem>
          {waiters.map((w) => (
            <MenuItem key={w.id} value={w.id}>
              {w.name}
            </MenuItem>
          ))}
        </TextField>
      </ListHeader>
      {board.isPending ? (
        <Loading />
      ) : board.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => board.refetch()}>
              Tentar novamente
            </Button>
          }
        >
          {errorMessage(board.error)}
        </Alert>
      ) : tabs.length === 0 ? (
        <Alert severity="info">Nenhuma comanda aberta.</Alert>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {plural(tabs.length, 'comanda aberta', 'comandas abertas')} · {formatCents(totals)}
          </Typography>
          <Box
            data-testid="comanda-board"
            sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))' }}
          >
            {tabs.map((tab) => (
              <TabCard key={tab.id} tab={tab} now={now} idleMinutes={board.data.idleMinutes} />
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}
