import {
  FEE_COMPARE_MAX,
  SIMULATOR_MODE_LABELS,
  SIMULATOR_MODES,
  type SimulatorMode,
} from '@balcao/core/fees';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { useSession } from '../auth/index.ts';
import { useFeeSettings, useFeeTables } from './api.ts';
import { CounterTable } from './CounterTable.tsx';
import { MealVouchers } from './MealVouchers.tsx';
import { RateTables } from './RateTables.tsx';
import { SimulationResults } from './SimulationResults.tsx';
import { simulate } from './simulation.ts';
import { type FeeSource, feeSources } from './sources.ts';

/** What the value means in each mode. */
const VALUE_LABEL: Record<SimulatorMode, string> = {
  receive: 'Valor da venda',
  charge: 'Quero receber',
  buyer: 'Preço do produto',
};

/**
 * Fee simulator (/dashboard/bank/simulator, issue 20): what the shop nets, what to charge to net a
 * price, and the buyer's installments, for up to three tables side by side; the counter table; the
 * shop's rate tables.
 */
export default function FeeSimulatorPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.fees);
  const tables = useFeeTables();
  const settings = useFeeSettings();
  const feedback = useFeedback();

  if (tables.isPending || settings.isPending) return <Loading />;
  if (tables.isError || settings.isError)
    return (
      <LoadError
        what="Não foi possível carregar as tabelas de taxas."
        error={tables.error ?? settings.error}
        onRetry={() => {
          tables.refetch();
          settings.refetch();
        }}
      />
    );
  const sources = feeSources(tables.data);
  const active = settings.data.activeTableId;
  const defaultId =
    active !== null && sources.some((s) => s.id === `t:${active}`) ? `t:${active}` : sources[0].id;

  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <Typography variant="h4" component="h1">
        Simulador de taxas
      </Typography>
      <Simulator sources={sources} defaultId={defaultId} />
      <CounterTable
        key={defaultId}
        clientId={user?.client.id}
        sources={sources}
        defaultSourceId={defaultId}
      />
      <RateTables tables={tables.data} canWrite={canWrite} show={feedback.show} />
      <MealVouchers canWrite={canWrite} show={feedback.show} />
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}

function Simulator({ sources, defaultId }: { sources: FeeSource[]; defaultId: string }) {
  const [mode, setMode] = useState<SimulatorMode>('receive');
  const [text, setText] = useState('1.000,00');
  const [picked, setPicked] = useState<string[]>([defaultId]);
  const chosen = picked
    .map((id) => sources.find((s) => s.id === id))
    .filter((s): s is FeeSource => Boolean(s));
  const cents = centsOf(text);
  const valid = Number.isSafeInteger(cents) && cents > 0;
  // A few hundred arithmetic operations: computed on each render, no memo needed.
  const rows =
    valid && chosen.length > 0
      ? simulate(
          chosen.map((s) => s.rates),
          mode,
          cents,
        )
      : [];

  return (
    <Paper component="section" aria-label="Simulação" sx={{ p: 2, display: 'grid', gap: 2, minWidth: 0 }}>
      <ToggleButtonGroup
        exclusive
        value={mode}
        onChange={(_e, v: SimulatorMode | null) => v && setMode(v)}
        aria-label="Modo"
        sx={{ flexWrap: 'wrap' }}
      >
        {SIMULATOR_MODES.map((m) => (
          <ToggleButton key={m} value={m}>
            {SIMULATOR_MODE_LABELS[m]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '220px 1fr' } }}>
        <MoneyField
          label={VALUE_LABEL[mode]}
          value={text}
          onChange={setText}
          error={!valid}
          helperText={valid ? ' ' : 'Informe um valor maior que zero'}
        />
        <TextField
          select
          label={`Adquirentes (até ${FEE_COMPARE_MAX})`}
          value={picked}
          onChange={(e) => {
            const value = e.target.value as unknown as string[];
            if (value.length > 0 && value.length <= FEE_COMPARE_MAX) setPicked(value);
          }}
          helperText={`Compare até ${FEE_COMPARE_MAX} tabelas: as da loja e os modelos datados das adquirentes`}
          slotProps={{
            select: {
              multiple: true,
              renderValue: () => (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {chosen.map((s) => (
                    <Chip key={s.id} size="small" label={s.label} />
                  ))}
                </Box>
              ),
            },
          }}
        >
          {sources.map((s) => (
            <MenuItem
              key={s.id}
              value={s.id}
              disabled={!picked.includes(s.id) && picked.length >= FEE_COMPARE_MAX}
            >
              <Checkbox checked={picked.includes(s.id)} size="small" />
              <ListItemText
                primary={s.label}
                secondary={`${s.acquirer} · taxas de ${s.ratesDate.split('-').reverse().join('/')}${s.verified ? '' : ' · não verificada'}`}
              />
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {mode === 'charge' && (
        <Typography variant="body2" color="text.secondary">
          O preço é o valor dividido por (1 − taxa efetiva), nunca o valor mais a taxa: assim a loja recebe o
          que quer.
        </Typography>
      )}
      {rows.length > 0 && <SimulationResults sources={chosen} rows={rows} mode={mode} />}
    </Paper>
  );
}
