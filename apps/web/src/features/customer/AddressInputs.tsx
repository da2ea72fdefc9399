import { BRAZIL_STATES, maskCep, normalizeCep } from '@balcao/core/cep';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  type Control,
  type FieldPath,
  type FieldValues,
  type UseFormGetValues,
  type UseFormSetValue,
  useWatch,
} from 'react-hook-form';
import { FormTextField } from '../../components/form.tsx';
import { ApiError } from '../../lib/api.ts';
import { fetchCep } from './api.ts';

/** The fields of one address as a form holds them (texts; optional ones empty). */
export type AddressValues = {
  zipCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
};

type CepStatus = { kind: 'idle' | 'loading' | 'found' | 'failed'; message?: string };

export function cepFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'not_found')
      return 'CEP não encontrado. Confira o número ou preencha o endereço manualmente.';
    if (error.code === 'validation') return 'CEP inválido. Confira o número.';
    // No connection at all (status 0); a 503 carries the server's own message (type the address).
    if (error.status === 0) return 'Sem conexão para consultar o CEP. Preencha o endereço manualmente.';
    return error.message;
  }
  return 'Não foi possível consultar o CEP agora. Preencha o endereço manualmente.';
}

/**
 * The one set of address inputs (customer form, the checkout's quick customer and its in-place
 * address): a full CEP fills street, neighbourhood, city and UF (and the complement when empty) and
 * moves to the number; when the lookup cannot answer (no connection, unknown CEP) the operator types
 * them (the
 * company page's address too, `optional`). `prefix` is where the address lives in the form ('', 'address.', 'addresses.2.'); `children`
 * are extra cells after the standard ones (the customer's "Apelido").
 */
export function AddressInputs<V extends FieldValues, Out>({
  control,
  setValue,
  getValues,
  prefix,
  initialZip = '',
  optional = false,
  children,
}: {
  control: Control<V, unknown, Out>;
  setValue: UseFormSetValue<V>;
  getValues: UseFormGetValues<V>;
  prefix: string;
  /** The CEP the address was loaded with: not looked up again when the form opens. */
  initialZip?: string;
  /** An address the form may leave empty (the company's): no field required, UF may be blank. */
  optional?: boolean;
  children?: ReactNode;
}) {
  const name = (field: keyof AddressValues) => `${prefix}${field}` as FieldPath<V>;
  const zip = useWatch({ control, name: name('zipCode') }) as string | undefined;
  const [status, setStatus] = useState<CepStatus>({ kind: 'idle' });
  const looked = useRef(normalizeCep(initialZip));
  const request = useRef(0);
  const numberRef = useRef<HTMLInputElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new CEP starts a lookup
  useEffect(() => {
    const digits = normalizeCep(zip ?? '');
    if (digits.length !== 8) {
      setStatus((s) => (s.kind === 'idle' ? s : { kind: 'idle' }));
      looked.current = '';
      return;
    }
    if (digits === looked.current) return;
    looked.current = digits;
    const ticket = ++request.current;
    setStatus({ kind: 'loading' });
    fetchCep(digits)
      .then((found) => {
        if (ticket !== request.current) return;
        const opts = { shouldValidate: true, shouldDirty: true };
        setValue(name('street'), found.street as never, opts);
        setValue(name('neighborhood'), found.neighborhood as never, opts);
        setValue(name('city'), found.city as never, opts);
        setValue(name('state'), found.state as never, opts);
        if (!getValues(name('complement')) && found.complement) {
          setValue(name('complement'), found.complement as never, { shouldDirty: true });
        }
        setStatus({ kind: 'found' });
        numberRef.current?.focus();
      })
      .catch((error) => {
        if (ticket === request.current) setStatus({ kind: 'failed', message: cepFailureMessage(error) });
      });
  }, [zip]);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 4, md: 3 }}>
        <FormTextField
          control={control}
          name={name('zipCode')}
          label="CEP"
          required={!optional}
          mask={maskCep}
          placeholder="00000-000"
          slotProps={{
            htmlInput: { inputMode: 'numeric' },
            input: {
              endAdornment:
                status.kind === 'loading' ? (
                  <InputAdornment position="end">
                    <CircularProgress size={18} aria-label="Buscando endereço" />
                  </InputAdornment>
                ) : undefined,
            },
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 8, md: 7 }}>
        <FormTextField control={control} name={name('street')} label="Logradouro" required={!optional} />
      </Grid>
      <Grid size={{ xs: 5, sm: 4, md: 2 }}>
        <FormTextField
          control={control}
          name={name('number')}
          label="Número"
          required={!optional}
          inputRef={numberRef}
          helperText="S/N se não houver"
        />
      </Grid>
      {status.kind === 'failed' && (
        <Grid size={12}>
          <Alert severity="warning" role="status" data-testid="cep-fallback">
            {status.message}
          </Alert>
        </Grid>
      )}
      <Grid size={{ xs: 7, sm: 8, md: 4 }}>
        <FormTextField control={control} name={name('complement')} label="Complemento" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <FormTextField control={control} name={name('neighborhood')} label="Bairro" required={!optional} />
      </Grid>
      <Grid size={{ xs: 8, sm: 4, md: 3 }}>
        <FormTextField control={control} name={name('city')} label="Cidade" required={!optional} />
      </Grid>
      <Grid size={{ xs: 4, sm: 2, md: 2 }}>
        <FormTextField control={control} name={name('state')} label="UF" select required={!optional}>
          {optional && <MenuItem value="">—</MenuItem>}
          {BRAZIL_STATES.map((uf) => (
            <MenuItem key={uf} value={uf}>
              {uf}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      {children}
    </Grid>
  );
}
