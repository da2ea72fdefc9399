import { maskCep } from '@balcao/core/cep';
import { can, WRITE } from '@balcao/core/routes';
import {
  DRIVER_FEE_MODE_LABELS,
  DRIVER_FEE_MODES,
  FEE_MODE_LABELS,
  FEE_MODES,
  type ShippingRuleSet,
  shippingSettingInputSchema,
} from '@balcao/core/shipping';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { type Control, useFieldArray, useFormState, useWatch } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormMoneyField,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';
import { useSession } from '../auth/index.ts';
import { useCreateRuleSet, useRuleSet, useUpdateRuleSet } from './api.ts';
import { RULES_FORM, RULES_LIST } from './ShippingSettingsListPage.tsx';

type Hood = { name: string; fee: string; time: string };
type CepFee = { from: string; to: string; fee: string; time: string };
type Tier = { upToKm: string; fee: string; time: string };
type Range = { from: string; to: string };
type DriverHood = { name: string; fee: string };

/** What the inputs hold: texts as typed (money with a comma), turned into the schema's input on save. */
type Values = {
  name: string;
  originZipCode: string;
  feeMode: string;
  fixedPrice: string;
  neighborhoods: Hood[];
  cepRanges: CepFee[];
  distanceTiers: Tier[];
  freeAbove: string;
  minOrder: string;
  deliveryTime: string;
  notServedNeighborhoods: string;
  notServedCepRanges: Range[];
  notServedMessage: string;
  driverFeeMode: string;
  driverFixed: string;
  driverPerKm: string;
  driverNeighborhoods: DriverHood[];
  active: boolean;
  isDefault: boolean;
};

const minutesText = (m: number) => (m ? String(m) : '');
const kmText = (km: number) => String(km).replace('.', ',');
const int = (text: string) =>
  text.trim() === '' ? 0 : /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
const decimal = (text: string) =>
  /^\d+([.,]\d{0,2})?$/.test(text.trim()) ? Number(text.trim().replace(',', '.')) : Number.NaN;

function toValues(r?: ShippingRuleSet): Values {
  return {
    name: r?.name ?? '',
    originZipCode: r ? maskCep(r.originZipCode) : '',
    feeMode: r?.feeMode ?? 'neighborhood',
    fixedPrice: centsToInput(r?.fixedPriceCents ?? 0),
    neighborhoods: (r?.neighborhoods ?? []).map((n) => ({
      name: n.name,
      fee: centsToInput(n.feeCents),
      time: minutesText(n.timeMinutes),
    })),
    cepRanges: (r?.cepRanges ?? []).map((c) => ({
      from: maskCep(c.from),
      to: maskCep(c.to),
      fee: centsToInput(c.feeCents),
      time: minutesText(c.timeMinutes),
    })),
    distanceTiers: (r?.distanceTiers ?? []).map((t) => ({
      upToKm: kmText(t.upToKm),
      fee: centsToInput(t.feeCents),
      time: minutesText(t.timeMinutes),
    })),
    freeAbove: centsToInput(r?.freeAboveCents ?? 0),
    minOrder: centsToInput(r?.minOrderCents ?? 0),
    deliveryTime: String(r?.deliveryTimeMinutes ?? 60),
    notServedNeighborhoods: (r?.notServedNeighborhoods ?? []).join('\n'),
    notServedCepRanges: (r?.notServedCepRanges ?? []).map((c) => ({
      from: maskCep(c.from),
      to: maskCep(c.to),
    })),
    notServedMessage: r?.notServedMessage ?? '',
    driverFeeMode: r?.driverFeeMode ?? 'fixed',
    driverFixed: centsToInput(r?.driverFixedCents ?? 0),
    driverPerKm: centsToInput(r?.driverPerKmCents ?? 0),
    driverNeighborhoods: (r?.driverNeighborhoods ?? []).map((n) => ({
      name: n.name,
      fee: centsToInput(n.feeCents),
    })),
    active: r?.active ?? true,
    isDefault: r?.isDefault ?? false,
  };
}

function toInput(v: Values) {
  return {
    name: v.name,
    originZipCode: v.originZipCode,
    feeMode: v.feeMode,
    fixedPriceCents: centsOf(v.fixedPrice),
    neighborhoods: v.neighborhoods.map((n) => ({
      name: n.name,
      feeCents: centsOf(n.fee),
      timeMinutes: int(n.time),
    })),
    cepRanges: v.cepRanges.map((c) => ({
      from: c.from,
      to: c.to,
      feeCents: centsOf(c.fee),
      timeMinutes: int(c.time),
    })),
    distanceTiers: v.distanceTiers.map((t) => ({
      upToKm: decimal(t.upToKm),
      feeCents: centsOf(t.fee),
      timeMinutes: int(t.time),
    })),
    freeAboveCents: centsOf(v.freeAbove),
    minOrderCents: centsOf(v.minOrder),
    deliveryTimeMinutes: int(v.deliveryTime),
    notServedNeighborhoods: v.notServedNeighborhoods
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean),
    notServedCepRanges: v.notServedCepRanges,
    notServedMessage: v.notServedMessage,
    driverFeeMode: v.driverFeeMode,
    driverFixedCents: centsOf(v.driverFixed),
    driverPerKmCents: centsOf(v.driverPerKm),
    driverNeighborhoods: v.driverNeighborhoods.map((n) => ({ name: n.name, feeCents: centsOf(n.fee) })),
    active: v.active,
    isDefault: v.isDefault,
  };
}

/** Schema and API paths back to the inputs: fixedPriceCents -> fixedPrice, neighborhoods.0.feeCents -> .fee. */
function fieldOf(path: string): string {
  return path
    .replace(/^notServedNeighborhoods\.\d+$/, 'notServedNeighborhoods')
    .replace(/^fixedPriceCents$/, 'fixedPrice')
    .replace(/^freeAboveCents$/, 'freeAbove')
    .replace(/^minOrderCents$/, 'minOrder')
    .replace(/^deliveryTimeMinutes$/, 'deliveryTime')
    .replace(/^driverFixedCents$/, 'driverFixed')
    .replace(/^driverPerKmCents$/, 'driverPerKm')
    .replace(/\.feeCents$/, '.fee')
    .replace(/\.timeMinutes$/, '.time');
}

/** Regra de entrega: new at /dashboard/settings/shipping-settings/crud, edit at the same page with ?id=N. */
export default function ShippingSettingFormPage() {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const id = raw && /^[1-9]\d*$/.test(raw) ? Number(raw) : undefined;
  const rules = useRuleSet(id);
  const { state, show, close } = useFeedback();
  let body: ReactNode;
  if (raw !== null && id === undefined)
    body = <Alert severity="error">Regra de entrega não encontrada</Alert>;
  else if (id && rules.isPending) body = <Loading />;
  else if (id && rules.isError)
    body = (
      <LoadError
        what="Não foi possível carregar a regra."
        error={rules.error}
        onRetry={() => rules.refetch()}
      />
    );
  else body = <RuleSetForm key={`${id ?? 'new'}`} rules={id ? rules.data : undefined} onFeedback={show} />;
  return (
    <Box sx={{ maxWidth: 900 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {id ? 'Editar regra de entrega' : 'Nova regra de entrega'}
      </Typography>
      {body}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {hint}
        </Typography>
      )}
      <Stack spacing={2} sx={{ mt: 1 }}>
        {children}
      </Stack>
    </Paper>
  );
}

const grid = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 } as const;

function RuleSetForm({ rules, onFeedback }: { rules?: ShippingRuleSet; onFeedback: (f: Feedback) => void }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const create = useCreateRuleSet();
  const update = useUpdateRuleSet();
  const form = useAppForm({
    schema: shippingSettingInputSchema,
    defaultValues: toValues(rules),
    toInput,
    fieldOf,
  });
  const { control } = form;
  const feeMode = useWatch({ control, name: 'feeMode' });
  const driverFeeMode = useWatch({ control, name: 'driverFeeMode' });
  const locked = !canWrite;

  const submit = async () => {
    const body = { ...toInput(form.getValues()), updatedAt: rules?.updatedAt } as Parameters<
      typeof create.mutateAsync
    >[0]['body'];
    const saved = rules
      ? await update.mutateAsync({ params: { id: rules.id }, body })
      : await create.mutateAsync({ body });
    if (rules) {
      form.reset(toValues(saved));
      onFeedback({ severity: 'success', title: 'Regra de entrega salva' });
      navigate(`${RULES_FORM}?id=${saved.id}`, { replace: true });
    } else navigate(RULES_LIST, { state: { message: 'Regra de entrega cadastrada' } });
  };

  return (
    <Form
      form={form}
      onSubmit={submit}
      onError={(message) =>
        onFeedback({ severity: 'error', title: 'Erro ao salvar a regra de entrega', message })
      }
      aria-label="Regra de entrega"
    >
      <Stack spacing={2}>
        {locked && <Alert severity="info">Você pode ver esta regra, mas não alterá-la.</Alert>}
        <Section title="Regra">
          <Box sx={grid}>
            <FormTextField control={control} name="name" label="Nome" required disabled={locked} />
            <FormTextField
              control={control}
              name="originZipCode"
              label="CEP da loja (origem)"
              mask={maskCep}
              disabled={locked}
              helperText="De onde a distância é medida"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <FormTextField
              control={control}
              name="feeMode"
              label="Como calcular a taxa"
              select
              disabled={locked}
            >
              {FEE_MODES.map((m) => (
                <MenuItem key={m} value={m}>
                  {FEE_MODE_LABELS[m]}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField
              control={control}
              name="deliveryTime"
              label="Tempo de entrega (minutos)"
              disabled={locked}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          </Box>
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
            <FormSwitch checkbox control={control} name="active" label="Ativa" disabled={locked} />
            <FormSwitch
              checkbox
              control={control}
              name="isDefault"
              label="Regra padrão do PDV"
              disabled={locked}
            />
          </Stack>
        </Section>

        <Section title="Taxa de entrega">
          {feeMode === 'fixed' && (
            <FormMoneyField control={control} name="fixedPrice" label="Taxa fixa" disabled={locked} />
          )}
          {feeMode === 'neighborhood' && (
            <Rows
              control={control}
              name="neighborhoods"
              label="Bairros atendidos"
              empty={{ name: '', fee: '', time: '' }}
              columns={[
                { key: 'name', label: 'Bairro', kind: 'text' },
                { key: 'fee', label: 'Taxa', kind: 'money' },
                { key: 'time', label: 'Tempo (min)', kind: 'int' },
              ]}
              disabled={locked}
              addLabel="Adicionar bairro"
            />
          )}
          {feeMode === 'cep_range' && (
            <Rows
              control={control}
              name="cepRanges"
              label="Faixas de CEP"
              empty={{ from: '', to: '', fee: '', time: '' }}
              columns={[
                { key: 'from', label: 'CEP inicial', kind: 'cep' },
                { key: 'to', label: 'CEP final', kind: 'cep' },
                { key: 'fee', label: 'Taxa', kind: 'money' },
                { key: 'time', label: 'Tempo (min)', kind: 'int' },
              ]}
              disabled={locked}
              addLabel="Adicionar faixa de CEP"
            />
          )}
          {feeMode === 'distance' && (
            <Rows
              control={control}
              name="distanceTiers"
              label="Faixas de distância"
              empty={{ upToKm: '', fee: '', time: '' }}
              columns={[
                { key: 'upToKm', label: 'Até (km)', kind: 'km' },
                { key: 'fee', label: 'Taxa', kind: 'money' },
                { key: 'time', label: 'Tempo (min)', kind: 'int' },
              ]}
              disabled={locked}
              addLabel="Adicionar faixa"
            />
          )}
          <Box sx={grid}>
            <FormMoneyField
              control={control}
              name="freeAbove"
              label="Frete grátis a partir de"
              helperText="0 = nunca grátis"
              disabled={locked}
            />
            <FormMoneyField
              control={control}
              name="minOrder"
              label="Pedido mínimo para entrega"
              helperText="0 = sem mínimo"
              disabled={locked}
            />
          </Box>
        </Section>

        <Section
          title="Áreas não atendidas"
          hint="O PDV mostra a mensagem e não calcula frete para estes endereços."
        >
          <FormTextField
            control={control}
            name="notServedNeighborhoods"
            label="Bairros não atendidos (um por linha)"
            multiline
            minRows={2}
            disabled={locked}
          />
          <Rows
            control={control}
            name="notServedCepRanges"
            label="Faixas de CEP não atendidas"
            empty={{ from: '', to: '' }}
            columns={[
              { key: 'from', label: 'CEP inicial', kind: 'cep' },
              { key: 'to', label: 'CEP final', kind: 'cep' },
            ]}
            disabled={locked}
            addLabel="Adicionar faixa não atendida"
          />
          <FormTextField
            control={control}
            name="notServedMessage"
            label="Mensagem no PDV"
            placeholder="Não entregamos neste endereço"
            disabled={locked}
          />
        </Section>

        <Section
          title="Pagamento do entregador"
          hint="Quanto o entregador recebe por entrega, no acerto do dia."
        >
          <FormTextField control={control} name="driverFeeMode" label="Como pagar" select disabled={locked}>
            {DRIVER_FEE_MODES.map((m) => (
              <MenuItem key={m} value={m}>
                {DRIVER_FEE_MODE_LABELS[m]}
              </MenuItem>
            ))}
          </FormTextField>
          {driverFeeMode === 'fixed' && (
            <FormMoneyField
              control={control}
              name="driverFixed"
              label="Valor por entrega"
              disabled={locked}
            />
          )}
          {driverFeeMode === 'per_km' && (
            <FormMoneyField control={control} name="driverPerKm" label="Valor por km" disabled={locked} />
          )}
          {driverFeeMode === 'neighborhood' && (
            <Rows
              control={control}
              name="driverNeighborhoods"
              label="Valor por bairro"
              empty={{ name: '', fee: '' }}
              columns={[
                { key: 'name', label: 'Bairro', kind: 'text' },
                { key: 'fee', label: 'Valor', kind: 'money' },
              ]}
              disabled={locked}
              addLabel="Adicionar bairro"
            />
          )}
        </Section>

        <FormError />
        <Stack direction="row" spacing={1}>
          {canWrite && <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>}
          <Button component={RouterLink} to={RULES_LIST}>
            Voltar para a lista
          </Button>
        </Stack>
      </Stack>
    </Form>
  );
}

type Kind = 'text' | 'money' | 'int' | 'km' | 'cep';
type RowList = 'neighborhoods' | 'cepRanges' | 'distanceTiers' | 'notServedCepRanges' | 'driverNeighborhoods';

const kmMask = (text: string) => {
  const cleaned = text.replace('.', ',').replace(/[^\d,]/g, '');
  const [whole, ...rest] = cleaned.split(',');
  return rest.length ? `${whole},${rest.join('').slice(0, 2)}` : whole;
};

/** An editable list of rows (bairros, faixas): one line of inputs per row, add and remove. */
function Rows<N extends RowList>({
  control,
  name,
  label,
  columns,
  empty,
  addLabel,
  disabled,
}: {
  control: Control<Values, unknown, unknown>;
  name: N;
  label: string;
  columns: { key: string; label: string; kind: Kind }[];
  empty: Values[N][number];
  addLabel: string;
  disabled?: boolean;
}) {
  const { fields, append, remove } = useFieldArray<Values, N>({
    control: control as unknown as Control<Values>,
    name,
  });
  const { errors } = useFormState({ control, name });
  const listError = errors[name] as { message?: string; root?: { message?: string } } | undefined;
  const listMessage = listError?.message ?? listError?.root?.message;
  return (
    <Box role="group" aria-label={label}>
      <Typography variant="body2" sx={{ mb: 1, fontWeight: 500 }}>
        {label}
      </Typography>
      <Stack spacing={1.5}>
        {fields.map((row, index) => (
          <Stack
            key={row.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            {columns.map((c) => {
              const fieldName = `${name}.${index}.${c.key}` as 'name';
              const common = {
                control,
                name: fieldName,
                label: c.label,
                size: 'small' as const,
                disabled,
                sx: { flex: c.kind === 'text' ? 2 : 1 },
              };
              if (c.kind === 'money') return <FormMoneyField key={c.key} {...common} />;
              return (
                <FormTextField
                  key={c.key}
                  {...common}
                  mask={
                    c.kind === 'cep'
                      ? maskCep
                      : c.kind === 'int'
                        ? (t) => t.replace(/\D/g, '')
                        : c.kind === 'km'
                          ? kmMask
                          : undefined
                  }
                  slotProps={{ htmlInput: { inputMode: c.kind === 'text' ? 'text' : 'decimal' } }}
                />
              );
            })}
            {!disabled && (
              <IconButton aria-label={`Remover linha ${index + 1} de ${label}`} onClick={() => remove(index)}>
                <DeleteIcon />
              </IconButton>
            )}
          </Stack>
        ))}
      </Stack>
      {listMessage && <FormHelperText error>{listMessage}</FormHelperText>}
      {!disabled && (
        <Button startIcon={<AddIcon />} sx={{ mt: 1 }} onClick={() => append(empty as never)}>
          {addLabel}
        </Button>
      )}
    </Box>
  );
}
