import type { CustomerData } from '@balcao/core/customer';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FieldPath, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { FormTextField } from '../../components/form.tsx';
import { AddressInputs } from './AddressInputs.tsx';
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

type AddressProps = {
  index: number;
  form: CustomerForm;
  initialZip: string;
  canWrite: boolean;
  onRemove: () => void;
  onMakeDefault: () => void;
};

/** One address of the customer: the shared inputs, its nickname, main or not, remove. */
function AddressFields({ index, form, initialZip, canWrite, onRemove, onMakeDefault }: AddressProps) {
  const { control, setValue, getValues } = form;
  const isDefault = useWatch({ control, name: `addresses.${index}.isDefault` });
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
      <AddressInputs
        control={control}
        setValue={setValue}
        getValues={getValues}
        prefix={`addresses.${index}.`}
        initialZip={initialZip}
      >
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormTextField
            control={control}
            name={name('label')}
            label="Apelido"
            placeholder="Casa, Trabalho..."
          />
        </Grid>
      </AddressInputs>
    </Paper>
  );
}
