import {
  KDS_HEARTBEAT_SECONDS,
  type KdsBoard,
  type KdsSettings,
  type KdsTicket,
  kdsTone,
} from '@balcao/core/kds';
import { can, WRITE } from '@balcao/core/routes';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import ReplayIcon from '@mui/icons-material/Replay';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { formatTime } from '../../lib/format.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/index.ts';
import {
  kdsHeartbeat,
  useKdsBoard,
  useKdsReady,
  useKdsRecall,
  useKdsStations,
  useSaveKdsSettings,
} from './api.ts';

const BASE = '/dashboard/sale/kds';

/** Cozinha (KDS), issue 35: the station picker, or one station's screen (/dashboard/sale/kds/{id}). */
export default function KdsPage() {
  const id = useIdFromPath(`${BASE}/`);
  return id === undefined ? <StationPicker /> : <StationScreen id={id} />;
}

function StationPicker() {
  const stations = useKdsStations();
  const { user } = useSession();
  if (stations.isPending) return <Loading />;
  if (stations.isError)
    return (
      <LoadError
        what="Não foi possível carregar as estações."
        error={stations.error}
        onRetry={() => stations.refetch()}
      />
    );
  const { data } = stations;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Cozinha (KDS)
      </Typography>
      <Typography color="text.secondary">
        Escolha a estação desta tela. Enquanto a tela estiver aberta, os pedidos do setor aparecem aqui em vez
        de sair na impressora; se ela ficar sem sinal por {data.settings.silenceSeconds} segundos, a
        impressora do setor volta a imprimir.
      </Typography>
      {data.stations.length === 0 ? (
        <Alert severity="info">
          Nenhum setor de produção com impressora. Cadastre os setores em Configurações &gt; Impressora.
        </Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
          {data.stations.map((s) => (
            <Paper key={s.id} variant="outlined" sx={{ p: 2 }}>
              <Typography variant="h6" component="h2">
                {s.name}
              </Typography>
              <Typography variant="body2" color={s.printing ? 'warning.main' : 'success.main'} sx={{ mb: 1 }}>
                {s.printing ? 'Sem tela: imprimindo' : 'Tela ativa'}
              </Typography>
              <Button variant="contained" component={RouterLink} to={`${BASE}/${s.id}`}>
                Abrir tela
              </Button>
            </Paper>
          ))}
        </Box>
      )}
      {can(user?.userType.id, WRITE.settings) && <TargetsForm settings={data.settings} />}
    </Stack>
  );
}

function TargetsForm({ settings }: { settings: KdsSettings }) {
  const [form, setForm] = useState(settings);
  const save = useSaveKdsSettings();
  const feedback = useFeedback();
  const field = (name: keyof KdsSettings, label: string) => (
    <TextField
      label={label}
      type="number"
      size="small"
      value={form[name]}
      onChange={(e) => setForm({ ...form, [name]: Number(e.target.value) })}
      sx={{ width: 200 }}
    />
  );
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Metas de tempo
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        {field('warnMinutes', 'Atenção após (min)')}
        {field('lateMinutes', 'Atrasado após (min)')}
        {field('silenceSeconds', 'Imprimir após sem sinal (s)')}
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { body: form },
              {
                onSuccess: () => feedback.show({ severity: 'success', title: 'Metas salvas' }),
                onError: (error) =>
                  feedback.show({
                    severity: 'error',
                    title: 'Não foi possível salvar',
                    message: error.message,
                  }),
              },
            )
          }
        >
          Salvar
        </Button>
      </Stack>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Paper>
  );
}

/** The screen says it is alive every few seconds; `lost` when the last call failed. */
function useHeartbeat(id: number) {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    let stopped = false;
    const beat = () =>
      kdsHeartbeat(id).then(
        () => !stopped && setLost(false),
        () => !stopped && setLost(true),
      );
    void beat();
    const timer = setInterval(beat, KDS_HEARTBEAT_SECONDS * 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [id]);
  return lost;
}

/** The clock the cards age by: the server's, ticking every 15 seconds on the screen. */
function useServerNow(serverNow: string | undefined) {
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  const [skew, setSkew] = useState(0);
  useEffect(() => {
    if (serverNow) setSkew(new Date(serverNow).getTime() - Date.now());
  }, [serverNow]);
  return tick + skew;
}

function StationScreen({ id }: { id: number }) {
  const board = useKdsBoard(id);
  const lost = useHeartbeat(id);
  const now = useServerNow(board.data?.now);
  const recall = useKdsRecall();
  const feedback = useFeedback();
  if (board.isPending) return <Loading />;
  if (board.isError)
    return (
      <LoadError
        what="Não foi possível carregar a tela."
        error={board.error}
        onRetry={() => board.refetch()}
      />
    );
  const { data } = board;
  const fullscreen = () => void document.documentElement.requestFullscreen?.().catch(() => undefined);
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {data.station.name}
        </Typography>
        <Typography variant="h6" color="text.secondary">
          {data.tickets.length} {data.tickets.length === 1 ? 'pedido' : 'pedidos'}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <Button
          size="large"
          variant="outlined"
          startIcon={<ReplayIcon />}
          disabled={!data.lastReady || recall.isPending}
          onClick={() =>
            recall.mutate(
              { params: { id } },
              {
                onError: (error) =>
                  feedback.show({
                    severity: 'error',
                    title: 'Não foi possível recuperar',
                    message: error.message,
                  }),
              },
            )
          }
        >
          Recuperar último
        </Button>
        <Button size="large" variant="outlined" startIcon={<FullscreenIcon />} onClick={fullscreen}>
          Tela cheia
        </Button>
      </Stack>
      {lost && (
        <Alert severity="error">
          Sem conexão com o servidor. Se continuar assim por {data.settings.silenceSeconds} segundos, os
          pedidos vão para a impressora do setor.
        </Alert>
      )}
      {!lost && data.station.printing && (
        <Alert severity="warning">
          Esta tela ficou sem sinal: os pedidos desse período foram para a impressora (marcados "Impresso").
        </Alert>
      )}
      {data.tickets.length === 0 ? (
        <Typography variant="h5" color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
          Nenhum pedido na fila
        </Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
          }}
        >
          {data.tickets.map((ticket) => (
            <TicketCard key={ticket.id} ticket={ticket} settings={data.settings} now={now} />
          ))}
        </Box>
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}

const TONE_COLOR = { ok: 'success.main', warn: 'warning.main', late: 'error.main' } as const;
/**
 * The card head's text on its tone: the palette's contrast text (white on the light theme's dark
 * tones, near black on the dark theme's light ones). White on the dark theme's tones read at 1.9-3:1.
 */
const TONE_TEXT = {
  ok: 'success.contrastText',
  warn: 'warning.contrastText',
  late: 'error.contrastText',
} as const;

export function TicketCard({
  ticket,
  settings,
  now,
}: {
  ticket: KdsTicket;
  settings: KdsBoard['settings'];
  now: number;
}) {
  const ready = useKdsReady();
  const feedback = useFeedback();
  const minutes = Math.max(0, Math.floor((now - new Date(ticket.createdAt).getTime()) / 60_000));
  const tone = kdsTone(minutes, settings);
  const bump = (line?: number) =>
    ready.mutate(
      { params: { id: ticket.id }, body: line === undefined ? {} : { line } },
      {
        onError: (error) =>
          feedback.show({
            severity: 'error',
            title: 'Não foi possível marcar pronto',
            message: error.message,
          }),
      },
    );
  return (
    <Paper
      variant="outlined"
      data-testid="kds-card"
      sx={{ display: 'flex', flexDirection: 'column', borderWidth: 3, borderColor: TONE_COLOR[tone] }}
    >
      <Box sx={{ px: 2, py: 1, bgcolor: TONE_COLOR[tone], color: TONE_TEXT[tone] }}>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
          {ticket.title.replace(/^[^-]+ - /, '')}
        </Typography>
        <Typography sx={{ fontSize: '1.1rem' }}>
          {formatTime(ticket.createdAt)} · {minutes} min
          {ticket.printed ? ' · Impresso' : ''}
        </Typography>
      </Box>
      <Box sx={{ p: 1, flex: 1 }}>
        {ticket.items.length === 0 ? (
          <Box component="pre" sx={{ m: 0, fontSize: '1.1rem', whiteSpace: 'pre-wrap' }}>
            {ticket.lines.filter((l) => l.trim() !== '').join('\n')}
          </Box>
        ) : (
          ticket.items.map((item, index) => (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: a ticket's lines never move; the index is the line's id
              key={index}
              component="button"
              type="button"
              disabled={item.ready || ready.isPending}
              onClick={() => bump(index)}
              aria-label={`Marcar pronto: ${item.quantity} x ${item.description}`}
              sx={{
                display: 'block',
                width: '100%',
                textAlign: 'left',
                border: 0,
                borderBottom: 1,
                borderColor: 'divider',
                bgcolor: 'transparent',
                color: item.ready ? 'text.disabled' : 'text.primary',
                textDecoration: item.ready ? 'line-through' : 'none',
                p: 1,
                cursor: 'pointer',
                font: 'inherit',
              }}
            >
              <Typography component="span" sx={{ fontSize: '1.5rem', fontWeight: 700 }}>
                {item.quantity} x {item.description}
                {item.variantName ? ` (${item.variantName})` : ''}
              </Typography>
              {item.additionals.map((a) => (
                <Typography key={a.name} sx={{ fontSize: '1.2rem', pl: 2 }}>
                  + {a.quantity > 1 ? `${a.quantity} ` : ''}
                  {a.name}
                </Typography>
              ))}
              {item.notes && (
                <Typography sx={{ fontSize: '1.2rem', pl: 2, fontWeight: 700, color: 'warning.main' }}>
                  OBS: {item.notes}
                </Typography>
              )}
            </Box>
          ))
        )}
      </Box>
      <Button
        variant="contained"
        color="success"
        size="large"
        disabled={ready.isPending}
        onClick={() => bump()}
        sx={{ m: 1, py: 1.5, fontSize: '1.3rem' }}
      >
        Pronto
      </Button>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Paper>
  );
}
