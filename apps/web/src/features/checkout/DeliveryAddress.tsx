import type { CustomerAddress } from '@balcao/core/customer';
import { addressBodySchema, customerApi } from '@balcao/core/endpoints/customer';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Form, FormError, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useCall } from '../../lib/client.ts';
import { AddressInputs, type AddressValues } from '../customer/index.ts';

/**
 * A delivery address typed at the checkout (issue 30): in the quick customer form and, for a customer
 * with none, in place on the delivery step, with the customer form's own address inputs.
 */
export type { AddressValues };
export { AddressInputs };

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
          <AddressInputs
            control={form.control}
            setValue={form.setValue}
            getValues={form.getValues}
            prefix=""
          />
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
