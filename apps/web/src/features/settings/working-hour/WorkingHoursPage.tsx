import { can, WRITE } from '@balcao/core/routes';
import { isoToShopLocal, shopLocalToIso } from '@balcao/core/time';
import {
  type Interval,
  WEEKDAYS,
  type WorkingHoursData,
  type WorkingHoursSettings,
  workingHoursInputSchema,
} from '@balcao/core/workingHours';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Controller, type FieldErrors, get, useFormState, useWatch } from 'react-hook-form';
import { FormSwitch, FormTextField, useAppForm } from '../../../components/form.tsx';
import { shopTimeZone } from '../../../lib/format.ts';
import { useSession } from '../../auth/index.ts';
import { useSaveWorkingHours, useWorkingHours } from '../api.ts';
import { SettingsForm, SettingsQuery, SettingsSection, useSyncedVersion } from '../SettingsLayout.tsx';
import { ClosedShopWarning, ShopStatusChip } from '../ShopStatus.tsx';

type Values = {
  weekly: Interval[][];
  exceptions: { date: string; closed: boolean; intervals: Interval[]; note: string }[];
  pause: { paused: boolean; reason: string; until: string };
};

/** An ISO instant as a datetime-local input shows it: on the shop's clock, like the hours above it. */
const toLocalInput = (iso: string | null) => (iso ? isoToShopLocal(iso, shopTimeZone()) : '');

function toValues(s: WorkingHoursSettings): Values {
  return {
    weekly: s.weekly,
    exceptions: s.exceptions,
    pause: { paused: s.pause.paused, reason: s.pause.reason, until: toLocalInput(s.pause.until) },
  };
}

function toInput(v: Values) {
  return {
    ...v,
    pause: {
      ...v.pause,
      until: v.pause.until ? (shopLocalToIso(v.pause.until, shopTimeZone()) ?? 'inválida') : null,
    },
    updatedAt: null,
  };
}

const TYPICAL_DAY: Interval[] = [{ start: '08:00', end: '18:00' }];

/** Horário de funcionamento (/dashboard/settings/working-hour, menu item only with checkIsOpen). */
export default function WorkingHoursPage() {
  const query = useWorkingHours();
  return <SettingsQuery query={query}>{(hours) => <WorkingHoursForm hours={hours} />}</SettingsQuery>;
}

function WorkingHoursForm({ hours }: { hours: WorkingHoursSettings }) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const save = useSaveWorkingHours();
  const form = useAppForm<Values, WorkingHoursData>({
    schema: workingHoursInputSchema,
    defaultValues: toValues(hours),
    toInput,
  });
  const { control, setValue } = form;
  const { version, saved } = useSyncedVersion(form, hours, toValues);
  const exceptions = useWatch({ control, name: 'exceptions' });
  const paused = useWatch({ control, name: 'pause.paused' });

  return (
    <SettingsForm
      title="Horário de funcionamento"
      label="Horário de funcionamento"
      form={form}
      changedBy={hours}
      canWrite={canWrite}
      readOnlyNote="Você pode ver o horário, mas só Administrador e Gerente podem alterá-lo."
      onSubmit={async ({ updatedAt: _, ...values }) =>
        saved(await save.mutateAsync({ body: { ...values, updatedAt: version } }))
      }
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
        <Typography variant="body2">Agora:</Typography>
        <ShopStatusChip />
      </Stack>
      <ClosedShopWarning />
      <SettingsSection title="Semana">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Vários horários por dia. Um horário que termina antes de começar passa da meia-noite (ex.: 18:00 às
          02:00). Dia sem horário: fechado.
        </Typography>
        <Stack sx={{ gap: 1.5 }}>
          {WEEKDAYS.map((day, d) => (
            <Controller
              key={day}
              control={control}
              name={`weekly.${d}`}
              render={({ field }) => (
                <DayRow
                  label={day}
                  name={`weekly.${d}`}
                  value={field.value}
                  onChange={field.onChange}
                  readOnly={!canWrite}
                />
              )}
            />
          ))}
        </Stack>
      </SettingsSection>

      <SettingsSection title="Exceções por data">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Feriados (fechado o dia todo) ou datas com horário especial: substituem o horário da semana.
        </Typography>
        <Stack sx={{ gap: 2 }}>
          {exceptions.map((exception, i) => (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; removal re-keys them all
              key={i}
              sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
              data-testid={`exception-${i}`}
            >
              <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, alignItems: { sm: 'center' } }}>
                <FormTextField
                  control={control}
                  name={`exceptions.${i}.date`}
                  label="Data"
                  type="date"
                  sx={{ maxWidth: 190 }}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
                <FormSwitch control={control} name={`exceptions.${i}.closed`} label="Fechado o dia todo" />
                <FormTextField control={control} name={`exceptions.${i}.note`} label="Observação" />
                {canWrite && (
                  <Tooltip title="Remover exceção">
                    <IconButton
                      aria-label={`Remover exceção ${i + 1}`}
                      onClick={() =>
                        setValue(
                          'exceptions',
                          exceptions.filter((_, j) => j !== i),
                          { shouldDirty: true },
                        )
                      }
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Tooltip>
                )}
              </Stack>
              {!exception.closed && (
                <Box sx={{ mt: 1 }}>
                  <Controller
                    control={control}
                    name={`exceptions.${i}.intervals`}
                    render={({ field }) => (
                      <DayRow
                        label="Horário"
                        name={`exceptions.${i}.intervals`}
                        value={field.value}
                        onChange={field.onChange}
                        readOnly={!canWrite}
                      />
                    )}
                  />
                </Box>
              )}
            </Box>
          ))}
          {canWrite && (
            <Box>
              <Button
                startIcon={<AddIcon />}
                onClick={() =>
                  setValue(
                    'exceptions',
                    [...exceptions, { date: '', closed: true, intervals: [], note: '' }],
                    { shouldDirty: true },
                  )
                }
              >
                Adicionar exceção
              </Button>
            </Box>
          )}
        </Stack>
      </SettingsSection>

      <SettingsSection title="Pausar">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Fecha a loja agora, fora do horário (falta de energia, evento). Sem data de fim, fica fechada até
          desligar.
        </Typography>
        <Controller
          control={control}
          name="pause.paused"
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />
              }
              label="Pausar"
            />
          )}
        />
        {paused && (
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mt: 1 }}>
            <FormTextField control={control} name="pause.reason" label="Motivo" required />
            <FormTextField
              control={control}
              name="pause.until"
              label="Até"
              type="datetime-local"
              sx={{ maxWidth: 260 }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Stack>
        )}
      </SettingsSection>
    </SettingsForm>
  );
}

/** One day's intervals: start and end times, add and remove. Errors of the day and its rows show below. */
function DayRow({
  label,
  name,
  value,
  onChange,
  readOnly,
}: {
  label: string;
  name: string;
  value: Interval[];
  onChange: (value: Interval[]) => void;
  readOnly: boolean;
}) {
  const { errors, submitCount } = useFormState();
  type Message = { message?: string };
  const dayError = get(errors as FieldErrors, name) as
    | (Message & { root?: Message } & ArrayLike<
          Record<'start' | 'end' | 'root', Message | undefined> | undefined
        >)
    | undefined;
  const messages: string[] = [];
  if (submitCount > 0 && dayError) {
    if (dayError.message) messages.push(dayError.message);
    const rows = Object.entries(dayError)
      .filter(([key]) => /^\d+$/.test(key))
      .map(([, row]) => row as Record<'start' | 'end' | 'root', Message | undefined> | undefined);
    if (rows.length > 0) {
      for (const row of rows) {
        for (const key of ['start', 'end', 'root'] as const)
          if (row?.[key]?.message) messages.push(row[key].message);
      }
    } else if (dayError.root?.message) messages.push(dayError.root.message);
  }
  const set = (i: number, key: keyof Interval, time: string) =>
    onChange(value.map((interval, j) => (j === i ? { ...interval, [key]: time } : interval)));
  return (
    <Box data-testid={`day-${label}`}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ gap: 1, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      >
        <Typography sx={{ width: 90, fontWeight: 600 }}>{label}</Typography>
        {value.length === 0 && (
          <Typography color="text.secondary" sx={{ minWidth: 80 }}>
            Fechado
          </Typography>
        )}
        {value.map((interval, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no id
          <Stack key={i} direction="row" sx={{ gap: 0.5, alignItems: 'center' }}>
            <TextField
              type="time"
              size="small"
              value={interval.start}
              onChange={(e) => set(i, 'start', e.target.value)}
              slotProps={{ htmlInput: { 'aria-label': `${label}: início ${i + 1}`, readOnly } }}
              sx={{ width: 136 }}
            />
            <Typography>às</Typography>
            <TextField
              type="time"
              size="small"
              value={interval.end}
              onChange={(e) => set(i, 'end', e.target.value)}
              slotProps={{ htmlInput: { 'aria-label': `${label}: fim ${i + 1}`, readOnly } }}
              sx={{ width: 136 }}
            />
            {!readOnly && (
              <Tooltip title="Remover horário">
                <IconButton
                  size="small"
                  aria-label={`Remover horário ${i + 1} de ${label}`}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        ))}
        {!readOnly && value.length < 6 && (
          <Button
            size="small"
            startIcon={<AddIcon />}
            sx={{ alignSelf: 'flex-start' }}
            aria-label={`Adicionar horário a ${label}`}
            onClick={() => onChange(value.length === 0 ? TYPICAL_DAY : [...value, { start: '', end: '' }])}
          >
            Horário
          </Button>
        )}
      </Stack>
      {messages.length > 0 && <FormHelperText error>{[...new Set(messages)].join('. ')}</FormHelperText>}
    </Box>
  );
}
