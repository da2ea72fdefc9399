import { BRAZIL_STATES, maskCep, normalizeCep } from '@balcao/core/cep';
import type { CustomerAddress } from '@balcao/core/customer';
import { addressBodySchema, customerApi } from '@balcao/core/endpoints/customer';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import {
  type Control,
  type FieldPath,
  type FieldValues,
  type UseFormSetValue,
  useWatch,
} from 'react-hook-form';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCall } from '../../lib/client.ts';
import { fetchCep } from '../customer/index.ts';

/**
 * A delivery address typed at the checkout (issue 30): in the quick customer form and, for a customer
 * with none, in place on the delivery step. A full CEP fills street, neighbourhood, city and UF; when
 * the lookup cannot answer (no connection, unknown CEP) the operator types them.
 */
export type AddressValues = {
  zipCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
};

export const emptyAddressValues: AddressValues = {
  zipCode: '',
  street: '',
  number: '',
  complement: '',
  neighborhood: '',
  city: '',
  state: '',
};

/** The body core's address schema reads: optional texts empty as null. */
export const addressInputOf = (a: AddressValues) => ({
  ...a,
  complement: a.complement || null,
  label: null,
  isDefault: true,
});

function cepFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'not_found')
      return 'CEP não encontrado. Confira o número ou preencha o endereço manualmente.';
    if (error.code === 'validation') return 'CEP inválido. Confira o número.';
    if (error.status === 0) return 'Sem conexão para consultar o CEP. Preencha o endereço manualmente.';
    return error.message;
  }
  return 'Não foi possível consultar o CEP agora. Preencha o endereço manualmente.';
}

/** The address inputs of a form whose address fields live under `prefix` ('' or 'address.'). */
export function AddressInputs<V extends FieldValues, Out>({
  control,
  setValue,
  prefix,
}: {
  control: Control<V, unknown, Out>;
  setValue: UseFormSetValue<V>;
  prefix: '' | 'address.';
}) {
  const name = (field: keyof AddressValues) => `${prefix}${field}` as FieldPath<V>;
  const zip = useWatch({ control, name: name('zipCode') }) as string | undefined;
  const [status, setStatus] = useState<{ kind: 'idle' | 'loading' | 'found' | 'failed'; message?: string }>({
    kind: 'idle',
  });
  const looked = useRef('');
  const numberRef = useRef<HTMLInputElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new CEP starts a lookup
  useEffect(() => {
    const digits = normalizeCep(zip ?? '');
    if (digits.length !== 8) {
      looked.current = '';
      setStatus({ kind: 'idle' });
      return;
    }
    if (digits === looked.current) return;
    looked.current = digits;
    let live = true;
    setStatus({ kind: 'loading' });
    fetchCep(digits)
      .then((found) => {
        if (!live) return;
        const opts = { shouldValidate: true, shouldDirty: true };
        setValue(name('street'), found.street as never, opts);
        setValue(name('neighborhood'), found.neighborhood as never, opts);
        setValue(name('city'), found.city as never, opts);
        setValue(name('state'), found.state as never, opts);
        setStatus({ kind: 'found' });
        numberRef.current?.focus();
      })
      .catch((error) => {
        if (live) setStatus({ kind: 'failed', message: cepFailure(error) });
      });
    return () => {
      live = false;
    };
  }, [zip]);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={control}
          name={name('zipCode')}
          label="CEP"
          required
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
      <Grid size={{ xs: 12, sm: 8 }}>
        <FormTextField control={control} name={name('street')} label="Logradouro" required />
      </Grid>
      {status.kind === 'failed' && (
        <Grid size={12}>
          <Alert severity="warning" role="status" data-testid="cep-fallback">
            {status.message}
          </Alert>
        </Grid>
      )}
      <Grid size={{ xs: 5, sm: 3 }}>
        <FormTextField
          control={control}
          name={name('number')}
          label="Número"
          required
          inputRef={numberRef}
          helperText="S/N se não houver"
        />
      </Grid>
      <Grid size={{ xs: 7, sm: 4 }}>
        <FormTextField control={control} name={name('complement')} label="Complemento" />
      </Grid>
      <Grid size={{ xs: 12, sm: 5 }}>
        <FormTextField control={control} name={name('neighborhood')} label="Bairro" required />
      </Grid>
      <Grid size={{ xs: 8, sm: 9 }}>
        <FormTextField control={control} name={name('city')} label="Cidade" required />
      </Grid>
      <Grid size={{ xs: 4, sm: 3 }}>
        <FormTextField control={control} name={name('state')} label="UF" select required>
          {BRAZIL_STATES.map((uf) => (
            <MenuItem key={uf} value={uf}>
              {uf}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
    </Grid>
  );
}

/**
 * A customer with no address, on the delivery step: the address added in place (POST
 * /v1/user-address, the customer's first becomes the default) and chosen for this sale.
 */
export function AddAddressForm({
  customerId,
  onAdded,
  onCancel,
}: {
  customerId: number;
  onAdded: (address: CustomerAddress) => void;
  onCancel?: () => void;
}) {
  const form = useAppForm<AddressValues, unknown>({
    schema: addressBodySchema,
    defaultValues: emptyAddressValues,
    toInput: addressInputOf,
  });
  const add = useCall(customerApi.addAddress);
  const submit = async (values: AddressValues) => {
    const created = await add.mutateAsync({ body: { ...addressInputOf(values), customerId } });
    onAdded(created as CustomerAddress);
  };
  return (
    <Form form={form} onSubmit={() => submit(form.getValues())} aria-label="Novo endereço de entrega">
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="subtitle2">Novo endereço de entrega</Typography>
          <AddressInputs control={form.control} setValue={form.setValue} prefix="" />
          <FormError />
          <Stack direction="row" spacing={1}>
            <SubmitButton busyLabel="Salvando...">Salvar endereço</SubmitButton>
            {onCancel && <Button onClick={onCancel}>Cancelar</Button>}
          </Stack>
        </Stack>
      </Paper>
    </Form>
  );
}
