import {
  COMANDA_STAGE_LABELS,
  type ComandaCard,
  type ComandaStage,
  minutesSince,
} from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type MouseEvent, memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ListHeader } from '../../components/ListHeader.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { TableOrdersPanel, TableQrDialog } from '../table-menu/index.ts';
import { useBoard } from './api.ts';

/** The board's colour of each stage (DESIGN: colour plus a label, never colour alone). */
export const STAGE_COLOR: Record<ComandaStage, 'primary' | 'warning' | 'success'> = {
  open: 'primary',
  bill: 'warning',
  payment: 'success',
};

const EDIT = '/dashboard/sale/command/edit';

/**
 * The board's one clock for every card: the server's time (the device's clock may be wrong), moved
 * on every 30 s. The same string between ticks, so a render for another reason (the waiter filter,
 * a live update) leaves the unchanged cards alone.
 */
function useServerNow(serverNow: string | undefined) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  // The device's clock against the server's, taken when an answer arrives.
  const offset = useMemo(() => (serverNow ? Date.parse(serverNow) - Date.now() : 0), [serverNow]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the tick moves the clock on
  return useMemo(() => new Date(Date.now() + offset).toISOString(), [offset, tick]);
}

/**
 * One card: plain elements styled once by the grid (no MUI component, no router link per card: the
 * grid handles the clicks), so a board of 200 tabs renders in one pass of cheap nodes.
 */
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
  const who = tab.customer?.name ?? tab.customerName;
  return (
    <a
      href={`${EDIT}/${tab.id}`}
      className={`card stage-${tab.stage}${idle ? ' idle' : ''}`}
      data-testid={`comanda-${tab.number}`}
    >
      <span className="top">
        <span className="num">{tab.number}</span>
        <span>{tab.tableLabel ? `Mesa ${tab.tableLabel}` : 'Sem mesa'}</span>
      </span>
      <span className="who">
        {tab.waiter?.name ?? 'Sem garçom'}
        {who ? ` · ${who}` : ''}
      </span>
      <span className="total">{formatCents(tab.totalCents)}</span>
      <span className="chips">
        <span className="chip stage">{COMANDA_STAGE_LABELS[tab.stage]}</span>
        <span className="chip" title="Minutos desde o último item">
          {since} min
        </span>
        {idle && <span className="chip idle-chip">Parada</span>}
        {tab.unsentCount > 0 && (
          <span className="chip unsent">{plural(tab.unsentCount, 'não enviado', 'não enviados')}</span>
        )}
        {tab.lastReadyAt && minutesSince(tab.lastReadyAt, now) < READY_SHOWN_MINUTES && (
          <span className="chip ready-chip">Pronto</span>
        )}
      </span>
    </a>
  );
});

/** How long a tab shows "Pronto" after the kitchen display bumped its latest ticket (issue 35). */
const READY_SHOWN_MINUTES = 15;

/**
 * The cards' links, handled once by the grid: a plain click navigates inside the app; a click with a
 * modifier or another button keeps the browser's behaviour (a new tab, a new window).
 */
function useGridNavigation() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as HTMLElement).closest('a');
      const href = link?.getAttribute('href');
      if (!link || !href || !event.currentTarget.contains(link)) return;
      event.preventDefault();
      navigate(href);
    },
    [navigate],
  );
}

/** The board grid's one style: every card's look, by class (stage colours from the theme). */
const boardSx = (theme: Theme) => {
  const stage = (color: 'primary' | 'warning' | 'success') => ({
    borderLeftColor: theme.palette[color].main,
    '& .stage': { background: theme.palette[color].main, color: theme.palette[color].contrastText },
  });
  return {
    display: 'grid',
    gap: 1.5,
    gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))',
    '& .card': {
      display: 'flex',
      flexDirection: 'column',
      gap: '2px',
      padding: '12px',
      border: `1px solid ${theme.palette.divider}`,
      borderLeftWidth: '6px',
      borderRadius: `${theme.shape.borderRadius}px`,
      color: theme.palette.text.primary,
      textDecoration: 'none',
      background: theme.palette.background.paper,
      ...theme.typography.body2,
      // Cards below the fold are laid out and painted when scrolled to (200 tabs are ~35 rows).
      contentVisibility: 'auto',
      containIntrinsicSize: 'auto 124px',
    },
    '& .card:hover, & .card:focus-visible': { background: theme.palette.action.hover },
    '& .card.idle': { background: theme.palette.action.selected },
    '& .stage-open': stage('primary'),
    '& .stage-bill': stage('warning'),
    '& .stage-payment': stage('success'),
    '& .top': { display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' },
    '& .num': { ...theme.typography.h5, fontWeight: 700 },
    '& .who': {
      color: theme.palette.text.secondary,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
    },
    '& .total': { ...theme.typography.subtitle1, fontWeight: 600 },
    '& .chips': { display: 'flex', flexWrap: 'wrap', gap: '4px', marginTop: '4px' },
    '& .chip': {
      borderRadius: '12px',
      padding: '1px 8px',
      fontSize: 12,
      border: `1px solid ${theme.palette.divider}`,
    },
    '& .chip.stage': { border: 'none' },
    '& .idle-chip': {
      background: theme.palette.error.main,
      color: theme.palette.error.contrastText,
      border: 'none',
    },
    '& .ready-chip': {
      background: theme.palette.success.main,
      color: theme.palette.success.contrastText,
      border: 'none',
    },
    '& .unsent': {
      background: theme.palette.info.main,
      color: theme.palette.info.contrastText,
      border: 'none',
    },
  };
};

/** /dashboard/sale/command: every open tab, by number, live through the shop's socket. */
export default function ComandaBoardPage() {
  const [picked, setWaiterId] = useState<number | ''>('');
  const { user } = useSession();
  const [printingQrs, setPrintingQrs] = useState(false);
  // One query for every filter: the waiter filter picks from the open tabs on the screen, so changing
  // it asks the server nothing and the list of waiters is the ones serving open tabs.
  const board = useBoard();
  const now = useServerNow(board.data?.now);
  const onGridClick = useGridNavigation();
  const all = board.data?.tabs;
  const waiters = useMemo(() => {
    const seen = new Map<number, string>();
    for (const t of all ?? []) if (t.waiter) seen.set(t.waiter.id, t.waiter.name);
    return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [all]);
  // A waiter whose last tab closed meanwhile is no longer a filter.
  const waiterId = waiters.some((w) => w.id === picked) ? picked : '';
  const tabs = useMemo(
    () => (waiterId === '' ? (all ?? []) : (all ?? []).filter((t) => t.waiter?.id === waiterId)),
    [all, waiterId],
  );
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
        {can(user?.userType.id, WRITE.settings) && (
          <Button onClick={() => setPrintingQrs(true)}>QR Codes das mesas</Button>
        )}
      </ListHeader>
      <TableQrDialog open={printingQrs} onClose={() => setPrintingQrs(false)} />
      <TableOrdersPanel />
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
          <Box data-testid="comanda-board" sx={boardSx} onClick={onGridClick}>
            {tabs.map((tab) => (
              <TabCard key={tab.id} tab={tab} now={now} idleMinutes={board.data.idleMinutes} />
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}
