import { BRAZIL_STATES, maskCep, normalizeCep } from '@balcao/core/cep';
import type { CustomerData } from '@balcao/core/customer';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { type FieldPath, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { FormTextField } from '../../components/form.tsx';
import { ApiError } from '../../lib/api.ts';
import { fetchCep } from './api.ts';
import { type AddressForm, type CustomerFormValues, emptyAddress } from './customerFormValues.ts';

type CustomerForm = UseFormReturn<CustomerFormValues, unknown, CustomerData>;

/** The customer's addresses: add, remove, pick the main one; one stays main while any exists. */
export function AddressesSection({ form, canWrite }: { form: CustomerForm; canWrite: boolean }) {
  const { control, setValue } = form;
  const addresses = useFieldArray({ control, name: 'addresses' });
  const errors = form.formState.errors.addresses as
    | { message?: string; root?: { message?: string } }
    | undefined;
  const error = errors?.root?.message ?? errors?.message;

  const setDefault = (index: number) => {
    addresses.fields.forEach((_, i) => {
      setValue(`addresses.${i}.isDefault`, i === index, { shouldDirty: true });
    });
  };

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography component="h2" variant="h6">
          Endereços
        </Typography>
        {canWrite && (
          <Button
            startIcon={<AddIcon />}
            onClick={() => addresses.append(emptyAddress(addresses.fields.length === 0))}
          >
            Adicionar endereço
          </Button>
        )}
      </Stack>
      {addresses.fields.length === 0 && (
        <Typography color="text.secondary">Nenhum endereço cadastrado.</Typography>
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
      <Stack spacing={2}>
        {addresses.fields.map((field, index) => (
          <AddressFields
            key={field.id}
            index={index}
            form={form}
            initialZip={field.zipCode}
            canWrite={canWrite}
            onRemove={() => {
              const wasDefault = form.getValues(`addresses.${index}.isDefault`);
              addresses.remove(index);
              if (wasDefault && addresses.fields.length > 1) setValue('addresses.0.isDefault', true);
            }}
            onMakeDefault={() => setDefault(index)}
          />
        ))}
      </Stack>
    </Paper>
  );
}

type CepStatus = { kind: 'idle' | 'loading' | 'found' | 'failed'; message?: string };

function cepFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'not_found')
      return 'CEP não encontrado. Confira o número ou preencha o endereço manualmente.';
    if (error.code === 'validation') return 'CEP inválido. Confira o número.';
    // No connection at all (status 0); a 503 is also `unavailable`, with the server's own message.
    if (error.code === 'unavailable' && error.status === 0)
      return 'Sem conexão para consultar o CEP. Preencha o endereço manualmente.';
    // 503: the server's message already says to type the address.
    return error.message;
  }
  return 'Não foi possível consultar o CEP agora. Preencha o endereço manualmente.';
}

type AddressProps = {
  index: number;
  form: CustomerForm;
  initialZip: string;
  canWrite: boolean;
  onRemove: () => void;
  onMakeDefault: () => void;
};

/** One address; typing a full CEP fills street, neighbourhood, city and UF. The fields stay editable. */
function AddressFields({ index, form, initialZip, canWrite, onRemove, onMakeDefault }: AddressProps) {
  const { control, setValue } = form;
  const zip = useWatch({ control, name: `addresses.${index}.zipCode` });
  const isDefault = useWatch({ control, name: `addresses.${index}.isDefault` });
  const complement = useWatch({ control, name: `addresses.${index}.complement` });
  const looked = useRef(normalizeCep(initialZip));
  const request = useRef(0);
  const numberRef = useRef<HTMLInputElement | null>(null);
  const [cep, setCep] = useState<CepStatus>({ kind: 'idle' });
  const complementRef = useRef(complement);
  complementRef.current = complement;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new CEP starts a lookup
  useEffect(() => {
    const digits = normalizeCep(zip ?? '');
    if (digits.length !== 8) {
      if (cep.kind !== 'idle') setCep({ kind: 'idle' });
      if (digits.length < 8) looked.current = '';
      return;
    }
    if (digits === looked.current) return;
    looked.current = digits;
    const ticket = ++request.current;
    setCep({ kind: 'loading' });
    fetchCep(digits)
      .then((address) => {
        if (ticket !== request.current) return;
        const opts = { shouldDirty: true, shouldValidate: true };
        setValue(`addresses.${index}.street`, address.street, opts);
        setValue(`addresses.${index}.neighborhood`, address.neighborhood, opts);
        setValue(`addresses.${index}.city`, address.city, opts);
        setValue(`addresses.${index}.state`, address.state, opts);
        if (!complementRef.current && address.complement) {
          setValue(`addresses.${index}.complement`, address.complement, { shouldDirty: true });
        }
        setCep({ kind: 'found' });
        numberRef.current?.focus();
      })
      .catch((error) => {
        if (ticket !== request.current) return;
        setCep({ kind: 'failed', message: cepFailureMessage(error) });
      });
  }, [zip]);

  const name = (field: keyof AddressForm) => `addresses.${index}.${field}` as FieldPath<CustomerFormValues>;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={`address-${index}`}>
      <Stack direction="row" sx={{ mb: 1, justifyContent: 'space-between', alignItems: 'center' }}>
        <FormControlLabel
          control={<Radio checked={Boolean(isDefault)} onChange={onMakeDefault} />}
          label="Endereço principal"
        />
        {canWrite && (
          <Tooltip title="Remover endereço">
            <IconButton aria-label={`Remover endereço ${index + 1}`} onClick={onRemove}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 4, md: 3 }}>
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
                  cep.kind === 'loading' ? (
                    <InputAdornment position="end">
                      <CircularProgress size={18} aria-label="Buscando endereço" />
                    </InputAdornment>
                  ) : undefined,
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 8, md: 7 }}>
          <FormTextField control={control} name={name('street')} label="Logradouro" required />
        </Grid>
        <Grid size={{ xs: 5, sm: 4, md: 2 }}>
          <FormTextField
            control={control}
            name={name('number')}
            label="Número"
            required
            inputRef={numberRef}
            helperText="S/N se não houver"
          />
        </Grid>
        <Grid size={12} sx={{ display: cep.kind === 'failed' ? 'block' : 'none' }}>
          <Alert severity="warning" role="status" data-testid="cep-fallback">
            {cep.message}
          </Alert>
        </Grid>
        <Grid size={{ xs: 7, sm: 8, md: 4 }}>
          <FormTextField control={control} name={name('complement')} label="Complemento" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <FormTextField control={control} name={name('neighborhood')} label="Bairro" required />
        </Grid>
        <Grid size={{ xs: 8, sm: 4, md: 3 }}>
          <FormTextField control={control} name={name('city')} label="Cidade" required />
        </Grid>
        <Grid size={{ xs: 4, sm: 2, md: 2 }}>
          <FormTextField control={control} name={name('state')} label="UF" select required>
            {BRAZIL_STATES.map((uf) => (
              <MenuItem key={uf} value={uf}>
                {uf}
              </MenuItem>
            ))}
          </FormTextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormTextField
            control={control}
            name={name('label')}
            label="Apelido"
            placeholder="Casa, Trabalho..."
          />
        </Grid>
      </Grid>
    </Paper>
  );
}
