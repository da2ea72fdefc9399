import { type CustomerData, type CustomerDetail, customerInputSchema } from '@balcao/core/customer';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, useAppForm } from '../../components/form.tsx';
import {
  RecordFormActions,
  RecordFormPage,
  useEditId,
  useRecordSave,
} from '../../components/RecordFormPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { AddressesSection } from './AddressesSection.tsx';
import { useCheckWhatsapp, useCreateCustomer, useCustomer, useUpdateCustomer } from './api.ts';
import { DelinquencyBadge, WhatsappBadge } from './CustomerBadges.tsx';
import { ContactSection, IdentitySection } from './CustomerFields.tsx';
import { toFormValues, toInput } from './customerFormValues.ts';

const LIST = '/dashboard/customer';

/** Customer form at /dashboard/customer/new and /dashboard/customer/edit/{id}. */
export default function CustomerFormPage() {
  const edit = useEditId(LIST);
  const customer = useCustomer(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={customer}
      title={['Novo cliente', 'Editar cliente']}
      notFound="Cliente não encontrado"
      maxWidth={960}
    >
      {(customer) => <CustomerForm customer={customer} />}
    </RecordFormPage>
  );
}

function CustomerForm({ customer }: { customer?: CustomerDetail }) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.customers);
  const whatsappCheck = useCheckWhatsapp();
  const { state: feedback, show, close } = useFeedback();
  const form = useAppForm({
    schema: customerInputSchema,
    defaultValues: toFormValues(customer),
    toInput,
    fieldOf: { creditLimitCents: 'creditLimit' },
  });
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const { current, setCurrent, save, onError } = useRecordSave({
    record: customer,
    create: { mutateAsync: (body: CustomerData) => create.mutateAsync({ body }) },
    update: {
      mutateAsync: ({ id, body }: { id: number; body: CustomerData & { updatedAt: string } }) =>
        update.mutateAsync({ params: { id }, body }),
    },
    reset: (saved) => form.reset(toFormValues(saved)),
    list: LIST,
    show,
    messages: {
      updated: 'Cliente atualizado com sucesso',
      created: 'Cliente cadastrado com sucesso',
      editFailed: 'Erro ao editar cliente',
      createFailed: 'Erro ao cadastrar cliente',
    },
  });

  return (
    <Form form={form} onSubmit={save} onError={onError} aria-label="Cadastro de cliente">
      <Stack spacing={2}>
        {!canWrite && (
          <Alert severity="info">
            Você pode ver este cadastro, mas o seu tipo de usuário não pode alterá-lo.
          </Alert>
        )}
        {current && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
            <DelinquencyBadge isDelinquent={current.isDelinquent} />
            <WhatsappBadge valid={current.whatsappValid} hasPhone={Boolean(current.phone)} />
            {current.phone && canWrite && (
              <Button
                size="small"
                disabled={whatsappCheck.isPending}
                onClick={() =>
                  whatsappCheck.mutate(
                    { params: { id: current.id } },
                    {
                      onSuccess: (saved) =>
                        setCurrent((c) => (c ? { ...c, ...saved, updatedAt: c.updatedAt } : saved)),
                      onError: (error) =>
                        show({
                          severity: 'error',
                          title: 'Erro ao verificar WhatsApp',
                          message: errorMessage(error),
                        }),
                    },
                  )
                }
              >
                {whatsappCheck.isPending ? 'Verificando...' : 'Verificar WhatsApp'}
              </Button>
            )}
          </Stack>
        )}
        {current?.isDelinquent && (
          <Alert severity="error">
            Cliente inadimplente: {formatCents(current.overdueCents)} em atraso no crediário.
          </Alert>
        )}

        <Box component="fieldset" disabled={!canWrite} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
          <Stack spacing={2}>
            <IdentitySection control={form.control} />
            <ContactSection control={form.control} />
            <AddressesSection form={form} canWrite={canWrite} />
          </Stack>
        </Box>

        <RecordFormActions editing={Boolean(current)} canWrite={canWrite} list={LIST} />
      </Stack>
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Form>
  );
}
