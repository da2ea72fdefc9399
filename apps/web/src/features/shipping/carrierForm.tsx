import { maskCep } from '@balcao/core/cep';
import { formatDateBr } from '@balcao/core/date';
import { maskQuantityInput, quantityInputToNumber } from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import type { FallbackRow, PackageDims } from '@balcao/core/shipping';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import {
  type Control,
  type DefaultValues,
  type FieldValues,
  type Path,
  useFieldArray,
  useFormState,
} from 'react-hook-form';
import type { ZodType } from 'zod';
import { type Feedback, FeedbackSnackbar, type useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  type AppForm,
  Form,
  FormError,
  FormMoneyField,
  FormQuantityField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';
import { useSession } from '../auth/index.ts';

/** Pieces the Melhor Envio and Rodonaves settings pages share: the page, the form, the box, the fallback table, sections. */

export type PackageText = { heightCm: string; widthCm: string; lengthCm: string; weightKg: string };
export type FallbackText = { from: string; to: string; upToKg: string; price: string; days: string };

const numberText = (n: number, places: number) => maskQuantityInput(String(n).replace('.', ','), places);

export function packageToText(p: PackageDims | null): PackageText {
  return p
    ? {
        heightCm: numberText(p.heightCm, 2),
        widthCm: numberText(p.widthCm, 2),
        lengthCm: numberText(p.lengthCm, 2),
        weightKg: numberText(p.weightKg, 3),
      }
    : { heightCm: '', widthCm: '', lengthCm: '', weightKg: '' };
}

/** The box as the schema reads it; null when every field is empty (no default box). */
export function packageFromText(p: PackageText): PackageDims | null {
  if (!p.heightCm && !p.widthCm && !p.lengthCm && !p.weightKg) return null;
  const n = (t: string) => quantityInputToNumber(t) ?? Number.NaN;
  return { heightCm: n(p.heightCm), widthCm: n(p.widthCm), lengthCm: n(p.lengthCm), weightKg: n(p.weightKg) };
}

export const fallbackToText = (rows: FallbackRow[]): FallbackText[] =>
  rows.map((r) => ({
    from: maskCep(r.from),
    to: maskCep(r.to),
    upToKg: numberText(r.upToKg, 3),
    price: centsToInput(r.priceCents),
    days: String(r.days),
  }));

export const fallbackFromText = (rows: FallbackText[]) =>
  rows.map((r) => ({
    from: r.from,
    to: r.to,
    upToKg: quantityInputToNumber(r.upToKg) ?? Number.NaN,
    priceCents: centsOf(r.price),
    days: /^\d+$/.test(r.days.trim()) ? Number(r.days) : Number.NaN,
  }));

/** Schema paths of the shared parts back to their inputs. */
export function carrierFieldOf(path: string): string {
  return path.replace(/^defaultPackage$/, 'defaultPackage.weightKg').replace(/\.priceCents$/, '.price');
}

export function Section({ title, hint, children }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
      <Stack spacing={2} sx={{ mt: 1.5 }}>
        {children}
      </Stack>
    </Paper>
  );
}

export const twoColumns = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
  gap: 2,
} as const;

type WithCarrierParts = FieldValues & { defaultPackage: PackageText; fallback: FallbackText[] };

export function PackageFields<V extends WithCarrierParts>({
  control,
  disabled,
}: {
  control: Control<V, unknown, unknown>;
  disabled?: boolean;
}) {
  const field = (key: keyof PackageText) => `defaultPackage.${key}` as Path<V>;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' }, gap: 2 }}>
      <FormQuantityField
        control={control}
        name={field('heightCm')}
        label="Altura"
        suffix="cm"
        places={2}
        disabled={disabled}
      />
      <FormQuantityField
        control={control}
        name={field('widthCm')}
        label="Largura"
        suffix="cm"
        places={2}
        disabled={disabled}
      />
      <FormQuantityField
        control={control}
        name={field('lengthCm')}
        label="Comprimento"
        suffix="cm"
        places={2}
        disabled={disabled}
      />
      <FormQuantityField
        control={control}
        name={field('weightKg')}
        label="Peso"
        suffix="kg"
        disabled={disabled}
      />
    </Box>
  );
}

/** The estimate table used when the carrier does not answer: CEP range, weight tier, price, days. */
export function FallbackRows<V extends WithCarrierParts>({
  control,
  disabled,
}: {
  control: Control<V, unknown, unknown>;
  disabled?: boolean;
}) {
  const { fields, append, remove } = useFieldArray({
    control: control as unknown as Control<WithCarrierParts>,
    name: 'fallback',
  });
  const { errors } = useFormState({ control });
  const listMessage = (errors.fallback as { message?: string } | undefined)?.message;
  const name = (index: number, key: keyof FallbackText) => `fallback.${index}.${key}` as Path<V>;
  return (
    <Box role="group" aria-label="Tabela de estimativa">
      <Stack spacing={1.5}>
        {fields.map((row, index) => (
          <Stack
            key={row.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <FormTextField
              control={control}
              name={name(index, 'from')}
              label="CEP inicial"
              size="small"
              mask={maskCep}
              disabled={disabled}
            />
            <FormTextField
              control={control}
              name={name(index, 'to')}
              label="CEP final"
              size="small"
              mask={maskCep}
              disabled={disabled}
            />
            <FormQuantityField
              control={control}
              name={name(index, 'upToKg')}
              label="Até"
              suffix="kg"
              size="small"
              disabled={disabled}
            />
            <FormMoneyField
              control={control}
              name={name(index, 'price')}
              label="Preço"
              size="small"
              disabled={disabled}
            />
            <FormTextField
              control={control}
              name={name(index, 'days')}
              label="Prazo (dias)"
              size="small"
              mask={(t) => t.replace(/\D/g, '')}
              disabled={disabled}
            />
            {!disabled && (
              <IconButton
                aria-label={`Remover linha ${index + 1} da tabela de estimativa`}
                onClick={() => remove(index)}
              >
                <DeleteIcon />
              </IconButton>
            )}
          </Stack>
        ))}
      </Stack>
      {listMessage && <FormHelperText error>{listMessage}</FormHelperText>}
      {!disabled && (
        <Button
          startIcon={<AddIcon />}
          sx={{ mt: 1 }}
          onClick={() => append({ from: '', to: '', upToKg: '', price: '', days: '' })}
        >
          Adicionar faixa de estimativa
        </Button>
      )}
    </Box>
  );
}

export const expiresText = (iso: string | null) =>
  iso ? `expira em ${formatDateBr(iso.slice(0, 10))}` : 'sem validade informada';

/**
 * A carrier's settings page: its title, a spinner while the settings load (or their error with a
 * retry), then `form` of the settings (a new one after each save, keyed by its date), and the page's
 * `feedback` (useFeedback's) under it.
 */
export function CarrierSettingsPage<S extends { updatedAt: string | null }>({
  title,
  settings,
  feedback,
  form,
}: {
  title: string;
  settings: UseQueryResult<S>;
  feedback: ReturnType<typeof useFeedback>;
  form: (settings: S) => ReactNode;
}) {
  return (
    <Box sx={{ maxWidth: 900 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {title}
      </Typography>
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <LoadError
          what="Não foi possível carregar as configurações."
          error={settings.error}
          onRetry={() => settings.refetch()}
        />
      ) : (
        <Fragment key={settings.data.updatedAt ?? 'new'}>{form(settings.data)}</Fragment>
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}

/**
 * A carrier's settings form over `settings`: `locked` for who may only read them; `submit` saves the
 * values (`save`, with the settings' date), shows them as saved and says `savedTitle`.
 */
export function useCarrierForm<
  S extends { updatedAt: string | null },
  V extends WithCarrierParts,
  I extends object,
  Out,
>({
  settings,
  schema,
  toValues,
  toInput,
  save,
  savedTitle,
  onFeedback,
}: {
  settings: S;
  schema: ZodType<Out>;
  toValues: (settings: S) => V;
  toInput: (values: V) => I;
  save: (body: I & { updatedAt?: string }) => Promise<S>;
  savedTitle: string;
  onFeedback: (f: Feedback) => void;
}) {
  const { user } = useSession();
  const locked = !can(user?.userType.id, WRITE.settings);
  const form = useAppForm<V, Out>({
    schema,
    defaultValues: toValues(settings) as DefaultValues<V>,
    toInput,
    fieldOf: carrierFieldOf,
  });
  const submit = async () => {
    const saved = await save({ ...toInput(form.getValues()), updatedAt: settings.updatedAt ?? undefined });
    form.reset(toValues(saved));
    onFeedback({ severity: 'success', title: savedTitle });
  };
  return { form, control: form.control, locked, submit };
}

/**
 * The form of a carrier's settings (`label`): a notice for who may only read them (`locked`), the
 * sections (`children`), the form's error and, for who may write, "Salvar".
 */
export function CarrierForm<V extends FieldValues, Out>({
  form,
  onSubmit,
  label,
  locked,
  onFeedback,
  children,
}: {
  form: AppForm<V, Out>;
  onSubmit: () => Promise<void>;
  label: string;
  locked: boolean;
  onFeedback: (f: Feedback) => void;
  children: ReactNode;
}) {
  return (
    <Form
      form={form}
      onSubmit={onSubmit}
      onError={(message) => onFeedback({ severity: 'error', title: 'Erro ao salvar', message })}
      aria-label={label}
    >
      <Stack spacing={2}>
        {locked && <Alert severity="info">Você pode ver estas configurações, mas não alterá-las.</Alert>}
        {children}
        <FormError />
        {!locked && (
          <Box>
            <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
          </Box>
        )}
      </Stack>
    </Form>
  );
}

/** "Origem e pacote padrão": the origin's CEP (`numeric`: a number keyboard) and the default box. */
export function OriginSection<V extends WithCarrierParts & { originZipCode: string }>({
  control,
  disabled,
  hint,
  numeric = false,
}: {
  control: Control<V, unknown, unknown>;
  disabled: boolean;
  hint?: string;
  numeric?: boolean;
}) {
  return (
    <Section title="Origem e pacote padrão" hint={hint}>
      <FormTextField
        control={control}
        name={'originZipCode' as Path<V>}
        label="CEP de origem"
        mask={maskCep}
        disabled={disabled}
        slotProps={numeric ? { htmlInput: { inputMode: 'numeric' } } : undefined}
      />
      <PackageFields control={control} disabled={disabled} />
    </Section>
  );
}

/** "Tabela de estimativa": the values shown when the carrier (`carrier`, "a Rodonaves") does not answer. */
export function FallbackSection<V extends WithCarrierParts>({
  control,
  disabled,
  carrier,
}: {
  control: Control<V, unknown, unknown>;
  disabled: boolean;
  carrier: string;
}) {
  return (
    <Section
      title="Tabela de estimativa"
      hint={`Quando ${carrier} não responde, o simulador mostra este valor como estimativa.`}
    >
      <FallbackRows control={control} disabled={disabled} />
    </Section>
  );
}
