import {
  CODE_PAGE_LABELS,
  CODE_PAGES,
  PRINT_JOB_KIND_LABELS,
  PRINT_JOB_STATUS_LABELS,
  type PrintingSettings,
  type PrintingSettingsInput,
  type PrintJob,
  printingSettingsInputSchema,
} from '@balcao/core/printing';
import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { type Control, Controller, type FieldPath, useFieldArray, useWatch } from 'react-hook-form';
import { FeedbackSnackbar, useFeedback } from '../../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../../components/form.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { newIdempotencyKey } from '../../../lib/client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../auth/index.ts';
import { useNamedOptions } from '../../product-category/index.ts';
import { AgentsCard } from './AgentsCard.tsx';
import {
  usePrintAction,
  usePrintingSettings,
  usePrintJobs,
  useSavePrintingSettings,
  useStations,
} from './api.ts';
import { setStationConfig, useStationConfig, useStationState } from './stationStore.ts';

type ProfileValues = {
  id?: number;
  key: string;
  name: string;
  paperWidth: string;
  columns: string;
  codePage: string;
  copies: string;
  cut: boolean;
};
type SectorValues = { key: string; name: string; profileKey: string; categoryIds: number[] };
type Values = {
  profiles: ProfileValues[];
  sectors: SectorValues[];
  receipt: { autoPrint: boolean; profileKey: string };
};

function toValues(settings: PrintingSettings): Values {
  return {
    profiles: settings.profiles.map((p) => ({
      id: p.id,
      key: p.key,
      name: p.name,
      paperWidth: String(p.paperWidth),
      columns: String(p.columns),
      codePage: p.codePage,
      copies: String(p.copies),
      cut: p.cut,
    })),
    sectors: settings.sectors.map((s) => ({
      key: s.key,
      name: s.name,
      profileKey: s.profileKey ?? '',
      categoryIds: s.categoryIds,
    })),
    receipt: { autoPrint: settings.receipt.autoPrint, profileKey: settings.receipt.profileKey ?? '' },
  };
}

const toInput = (v: Values) => ({
  profiles: v.profiles.map((p) => ({
    key: p.key,
    name: p.name,
    paperWidth: Number(p.paperWidth),
    columns: Number(p.columns),
    codePage: p.codePage,
    copies: p.copies.trim() === '' ? undefined : Number(p.copies),
    cut: p.cut,
  })),
  sectors: v.sectors.map((s) => ({
    key: s.key,
    name: s.name,
    profileKey: s.profileKey || null,
    categoryIds: s.categoryIds,
  })),
  receipt: { autoPrint: v.receipt.autoPrint, profileKey: v.receipt.profileKey || null },
});

const newProfile = (n: number): ProfileValues => ({
  key: newIdempotencyKey(),
  name: n === 0 ? 'Caixa' : `Impressora ${n + 1}`,
  paperWidth: '80',
  columns: '48',
  codePage: 'PC860',
  copies: '1',
  cut: true,
});

/** /dashboard/settings/printer: printer profiles, production sectors, receipt options, this browser as a station. */
export default function PrinterSettingsPage() {
  const settings = usePrintingSettings();
  const feedback = useFeedback();
  if (settings.isPending) return <Loading />;
  if (settings.isError) return <LoadError error={settings.error} onRetry={() => settings.refetch()} />;
  return (
    <Stack spacing={3} sx={{ maxWidth: 1100 }}>
      <Typography variant="h5" component="h1">
        Impressora
      </Typography>
      <SettingsForm
        key={settings.data.updatedAt ?? 'new'}
        settings={settings.data}
        onFeedback={feedback.show}
      />
      <AgentsCard settings={settings.data} />
      <StationCard settings={settings.data} />
      <JobsCard onFeedback={feedback.show} />
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}

type Show = ReturnType<typeof useFeedback>['show'];

function SettingsForm({ settings, onFeedback }: { settings: PrintingSettings; onFeedback: Show }) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const save = useSavePrintingSettings();
  const test = usePrintAction();
  const categories = useNamedOptions('product-category', user?.client.id);
  const form = useAppForm<Values, PrintingSettingsInput>({
    schema: printingSettingsInputSchema,
    defaultValues: toValues(settings),
    toInput,
  });
  const { control } = form;
  const profiles = useFieldArray({ control, name: 'profiles' });
  const sectors = useFieldArray({ control, name: 'sectors' });
  const watchedProfiles = useWatch({ control, name: 'profiles' });
  const profileOptions = (watchedProfiles ?? []).map((p) => ({ key: p.key, name: p.name || 'Sem nome' }));
  const categoryOptions = categories.data ?? [];
  const disabled = !canWrite;

  const submit = async (input: PrintingSettingsInput) => {
    await save.mutateAsync({ body: { ...input, updatedAt: settings.updatedAt } });
    onFeedback({ severity: 'success', title: 'Configurações de impressão salvas' });
  };

  const printTest = (profileId: number) =>
    test.mutate(
      { kind: 'test', id: profileId },
      {
        onSuccess: (job) =>
          onFeedback({
            severity: 'success',
            title:
              job.status === 'pending' ? 'Página de teste aguardando uma estação' : 'Página de teste enviada',
          }),
        onError: (error) =>
          onFeedback({ severity: 'error', title: 'Erro ao imprimir', message: errorMessage(error) }),
      },
    );

  return (
    <Form
      form={form}
      onSubmit={submit}
      onError={(message) => onFeedback({ severity: 'error', title: 'Erro ao salvar', message })}
      aria-label="Configurações de impressão"
    >
      <Stack spacing={3}>
        {settings.updatedBy && settings.updatedAt && (
          <Typography variant="body2" color="text.secondary">
            Alterado por {settings.updatedBy.name} em {formatDateTime(settings.updatedAt)}
          </Typography>
        )}
        {!canWrite && (
          <Alert severity="info">Somente Administrador e Gerente alteram estas configurações.</Alert>
        )}
        <SettingsCard title="Perfis de impressora">
          {profiles.fields.length === 0 && (
            <Typography color="text.secondary">Nenhum perfil cadastrado.</Typography>
          )}
          {profiles.fields.map((field, i) => (
            <Box
              key={field.id}
              role="group"
              aria-label={`Perfil ${i + 1}`}
              sx={{
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr 1fr', md: '1.8fr 1.1fr 0.9fr 1.7fr 0.8fr auto auto' },
                alignItems: 'center',
                pb: 1.5,
                borderBottom: 1,
                borderColor: 'divider',
              }}
            >
              <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
                <FormTextField
                  control={control}
                  name={`profiles.${i}.name`}
                  label="Nome"
                  size="small"
                  disabled={disabled}
                />
              </Box>
              <SelectField
                control={control}
                name={`profiles.${i}.paperWidth`}
                label="Papel"
                disabled={disabled}
                // Issue 30: 58 mm prints 32 columns, 80 mm 48 (the columns stay editable after).
                onPicked={(width) =>
                  form.setValue(`profiles.${i}.columns`, width === '58' ? '32' : '48', { shouldDirty: true })
                }
                options={[
                  ['58', '58 mm'],
                  ['80', '80 mm'],
                ]}
              />
              <SelectField
                control={control}
                name={`profiles.${i}.columns`}
                label="Colunas"
                disabled={disabled}
                options={[
                  ['32', '32'],
                  ['42', '42'],
                  ['48', '48'],
                ]}
              />
              <SelectField
                control={control}
                name={`profiles.${i}.codePage`}
                label="Página de código"
                disabled={disabled}
                options={CODE_PAGES.map((c) => [c, CODE_PAGE_LABELS[c]])}
              />
              <FormTextField
                control={control}
                name={`profiles.${i}.copies`}
                label="Cópias"
                size="small"
                disabled={disabled}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <FormSwitch control={control} name={`profiles.${i}.cut`} label="Corte" disabled={disabled} />
              <Stack direction="row" spacing={0.5} sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
                {field.id && settings.profiles.some((p) => p.key === field.key) && (
                  <Button
                    size="small"
                    onClick={() =>
                      printTest(settings.profiles.find((p) => p.key === field.key)?.id as number)
                    }
                  >
                    Imprimir página de teste
                  </Button>
                )}
                {canWrite && (
                  <IconButton aria-label={`Remover perfil ${i + 1}`} onClick={() => profiles.remove(i)}>
                    <DeleteIcon />
                  </IconButton>
                )}
              </Stack>
            </Box>
          ))}
          {canWrite && (
            <AddRowButton onClick={() => profiles.append(newProfile(profiles.fields.length))}>
              Adicionar perfil
            </AddRowButton>
          )}
        </SettingsCard>

        <SettingsCard title="Setores de produção">
          <Typography variant="body2" color="text.secondary">
            As comandas imprimem os itens de cada categoria na impressora do seu setor.
          </Typography>
          {sectors.fields.map((field, i) => (
            <Box
              key={field.id}
              role="group"
              aria-label={`Setor ${i + 1}`}
              sx={{
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: { xs: '1fr', md: '1.2fr 1.2fr 3fr auto' },
                alignItems: 'start',
              }}
            >
              <FormTextField
                control={control}
                name={`sectors.${i}.name`}
                label="Setor"
                size="small"
                disabled={disabled}
              />
              <SelectField
                control={control}
                name={`sectors.${i}.profileKey`}
                label="Impressora"
                disabled={disabled}
                options={[
                  ['', 'Não imprime'],
                  ...profileOptions.map((p) => [p.key, p.name] as [string, string]),
                ]}
              />
              <Controller
                control={control}
                name={`sectors.${i}.categoryIds`}
                render={({ field: f, fieldState }) => (
                  <Autocomplete
                    multiple
                    size="small"
                    disabled={disabled}
                    options={categoryOptions.map((c) => c.id)}
                    getOptionLabel={(id) => categoryOptions.find((c) => c.id === id)?.name ?? `#${id}`}
                    value={f.value}
                    onChange={(_, value) => f.onChange(value)}
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        label="Categorias"
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error?.message}
                      />
                    )}
                  />
                )}
              />
              {canWrite && (
                <IconButton aria-label={`Remover setor ${i + 1}`} onClick={() => sectors.remove(i)}>
                  <DeleteIcon />
                </IconButton>
              )}
            </Box>
          ))}
          {canWrite && (
            <AddRowButton
              onClick={() =>
                sectors.append({
                  key: newIdempotencyKey(),
                  name: sectors.fields.length === 0 ? 'Cozinha' : sectors.fields.length === 1 ? 'Bar' : '',
                  profileKey: '',
                  categoryIds: [],
                })
              }
            >
              Adicionar setor
            </AddRowButton>
          )}
        </SettingsCard>

        <SettingsCard title="Cupom de venda">
          <FormSwitch
            control={control}
            name="receipt.autoPrint"
            label="Imprimir o cupom automaticamente após cada venda"
            disabled={disabled}
          />
          <Box sx={{ maxWidth: 360 }}>
            <SelectField
              control={control}
              name="receipt.profileKey"
              label="Impressora do cupom"
              disabled={disabled}
              options={[['', 'Nenhuma'], ...profileOptions.map((p) => [p.key, p.name] as [string, string])]}
            />
          </Box>
        </SettingsCard>
        <FormError />
        {canWrite && (
          <Box>
            <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
          </Box>
        )}
      </Stack>
    </Form>
  );
}

/** A card of the settings: its `title` (h2), then its fields. */
function SettingsCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {children}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** "Adicionar …" under a list of rows, for who may write. */
function AddRowButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Box>
      <Button startIcon={<AddIcon />} onClick={onClick}>
        {children}
      </Button>
    </Box>
  );
}

function SelectField({
  control,
  name,
  label,
  options,
  disabled,
  onPicked,
}: {
  control: Control<Values, unknown, PrintingSettingsInput>;
  name: FieldPath<Values>;
  label: string;
  options: readonly (readonly [string, string])[];
  disabled?: boolean;
  /** After the user picks a value (the paper sets its columns). */
  onPicked?: (value: string) => void;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          size="small"
          label={label}
          disabled={disabled}
          name={field.name}
          value={field.value ?? ''}
          onChange={(e) => {
            field.onChange(e.target.value);
            onPicked?.(e.target.value);
          }}
          onBlur={field.onBlur}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
        >
          {options.map(([value, text]) => (
            <MenuItem key={value} value={value}>
              {text}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** This browser as a print station: its name, the profiles it prints, on or off. */
function StationCard({ settings }: { settings: PrintingSettings }) {
  const config = useStationConfig();
  const state = useStationState();
  const stations = useStations();
  const [name, setName] = useState(config?.name ?? 'Estação');
  const [picked, setPicked] = useState<number[]>(config?.profileIds ?? []);
  const active = Boolean(config);

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h2">
              Estação de impressão
            </Typography>
            {active && (
              <Chip
                size="small"
                color={state.status === 'active' ? 'success' : state.status === 'error' ? 'error' : 'default'}
                label={
                  state.status === 'active'
                    ? 'Estação ativa'
                    : state.status === 'error'
                      ? 'Estação com erro'
                      : 'Conectando...'
                }
              />
            )}
          </Stack>
          <Typography variant="body2" color="text.secondary">
            Este navegador imprime os trabalhos dos perfis marcados. Deixe esta aba aberta no computador
            ligado à impressora; no Chromium aberto com{' '}
            <Box component="code" sx={{ whiteSpace: 'nowrap' }}>
              --kiosk-printing
            </Box>
            , imprime sem mostrar a janela de impressão.
          </Typography>
          {state.status === 'error' && active && <Alert severity="error">{state.message}</Alert>}
          {settings.profiles.length === 0 ? (
            <Typography color="text.secondary">
              Salve um perfil de impressora para ativar uma estação.
            </Typography>
          ) : (
            <>
              <TextField
                label="Nome da estação"
                size="small"
                value={name}
                onChange={(e) => setName(e.target.value)}
                disabled={active}
                sx={{ maxWidth: 360 }}
              />
              <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
                {settings.profiles.map((p) => (
                  <FormControlLabel
                    key={p.id}
                    label={`${p.name} (${p.paperWidth} mm)`}
                    control={
                      <Checkbox
                        checked={picked.includes(p.id)}
                        disabled={active}
                        onChange={(e) =>
                          setPicked((list) =>
                            e.target.checked ? [...list, p.id] : list.filter((id) => id !== p.id),
                          )
                        }
                      />
                    }
                  />
                ))}
              </Stack>
              <Box>
                {active ? (
                  <Button variant="outlined" onClick={() => setStationConfig(null)}>
                    Desativar estação
                  </Button>
                ) : (
                  <Button
                    variant="contained"
                    disabled={picked.length === 0 || name.trim() === ''}
                    onClick={() => setStationConfig({ name: name.trim(), profileIds: picked })}
                  >
                    Ativar estação
                  </Button>
                )}
              </Box>
            </>
          )}
          <Typography variant="subtitle2" component="h3">
            Estações conectadas
          </Typography>
          {stations.data?.length ? (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              {stations.data.map((s) => (
                <Chip
                  key={s.id}
                  label={`${s.name}: ${s.profileIds
                    .map((id) => settings.profiles.find((p) => p.id === id)?.name ?? `#${id}`)
                    .join(', ')}`}
                />
              ))}
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Nenhuma estação conectada: os trabalhos aguardam até uma estação se conectar.
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Columns that give way on phones. */
const HIDE_XS = { display: { xs: 'none', sm: 'table-cell' } } as const;

const STATUS_COLORS: Record<PrintJob['status'], 'default' | 'success' | 'error' | 'warning' | 'info'> = {
  pending: 'warning',
  sent: 'info',
  printed: 'success',
  failed: 'error',
  unconfirmed: 'error',
};

/** The shop's latest print jobs; a failed or unconfirmed one can be sent again, a printed one reprinted. */
function JobsCard({ onFeedback }: { onFeedback: Show }) {
  const jobs = usePrintJobs();
  const action = usePrintAction();
  const run = (kind: 'retry' | 'reprint', id: number) =>
    action.mutate(
      { kind, id },
      {
        onSuccess: () =>
          onFeedback({
            severity: 'success',
            title: kind === 'retry' ? 'Impressão enviada de novo' : 'Reimpressão enviada',
          }),
        onError: (error) =>
          onFeedback({ severity: 'error', title: 'Erro ao imprimir', message: errorMessage(error) }),
      },
    );
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Impressões recentes
          </Typography>
          {jobs.isError && <LoadError error={jobs.error} onRetry={() => jobs.refetch()} />}
          {jobs.data && jobs.data.length === 0 && (
            <Typography color="text.secondary">Nenhuma impressão ainda.</Typography>
          )}
          {jobs.data && jobs.data.length > 0 && (
            <TableContainer>
              <Table size="small" aria-label="Impressões recentes">
                <TableHead>
                  <TableRow>
                    <TableCell>Documento</TableCell>
                    <TableCell sx={HIDE_XS}>Impressora</TableCell>
                    <TableCell sx={HIDE_XS}>Enviado por</TableCell>
                    <TableCell>Estação</TableCell>
                    <TableCell>Situação</TableCell>
                    <TableCell align="right">Ações</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {jobs.data.map((job) => (
                    <TableRow key={job.id}>
                      <TableCell>
                        <Typography variant="body2">{job.payload.title}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {PRINT_JOB_KIND_LABELS[job.kind]} · {formatDateTime(job.createdAt)}
                        </Typography>
                      </TableCell>
                      <TableCell sx={HIDE_XS}>{job.profile.name}</TableCell>
                      <TableCell sx={HIDE_XS}>{job.createdBy.name}</TableCell>
                      <TableCell>{job.stationName ?? '-'}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={STATUS_COLORS[job.status]}
                          label={PRINT_JOB_STATUS_LABELS[job.status]}
                        />
                        {job.error && (
                          <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                            {job.error}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell align="right">
                        {(job.status === 'failed' || job.status === 'unconfirmed') && (
                          <Button size="small" onClick={() => run('retry', job.id)}>
                            Tentar de novo
                          </Button>
                        )}
                        {job.status === 'printed' && (
                          <Button size="small" onClick={() => run('reprint', job.id)}>
                            Reimprimir
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
