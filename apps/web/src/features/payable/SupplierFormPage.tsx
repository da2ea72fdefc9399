import { maskDocument } from '@balcao/core/document';
import {
  type Supplier,
  type SupplierFormValues,
  type SupplierInput,
  supplierInputSchema,
} from '@balcao/core/payable';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormTextField, useAppForm } from '../../components/form.tsx';
import {
  RecordFormActions,
  RecordFormPage,
  useEditId,
  useRecordSave,
} from '../../components/RecordFormPage.tsx';
import { useSession } from '../auth/index.ts';
import { useCreateSupplier, useSupplier, useUpdateSupplier } from './api.ts';

const LIST = '/dashboard/supplier';

/** Fornecedor at /dashboard/supplier/new and /dashboard/supplier/edit/{id} (issue 34). */
export default function SupplierFormPage() {
  const { state, show, close } = useFeedback();
  const edit = useEditId(LIST);
  const supplier = useSupplier(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={supplier}
      title={['Novo fornecedor', 'Editar fornecedor']}
      notFound="Fornecedor não encontrado"
      maxWidth={760}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(supplier) => <SupplierForm supplier={supplier} show={show} />}
    </RecordFormPage>
  );
}

const valuesOf = (s?: Supplier): SupplierFormValues => ({
  name: s?.name ?? '',
  document: s?.document ? maskDocument(s.document) : '',
  contactName: s?.contactName ?? '',
  phone: s?.phone ?? '',
  email: s?.email ?? '',
  pixKey: s?.pixKey ?? '',
  notes: s?.notes ?? '',
});

function SupplierForm({
  supplier,
  show,
}: {
  supplier?: Supplier;
  show: ReturnType<typeof useFeedback>['show'];
}) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.finance);
  const create = useCreateSupplier();
  const update = useUpdateSupplier();
  const form = useAppForm({ schema: supplierInputSchema, defaultValues: valuesOf(supplier) });
  const { current, save, onError } = useRecordSave<Supplier, SupplierInput>({
    record: supplier,
    create: { mutateAsync: (body) => create.mutateAsync({ body }) },
    update: { mutateAsync: ({ id, body }) => update.mutateAsync({ params: { id }, body }) },
    reset: (saved) => form.reset(valuesOf(saved)),
    list: LIST,
    show,
    messages: {
      updated: 'Fornecedor salvo',
      created: 'Fornecedor cadastrado',
      editFailed: 'Erro ao salvar fornecedor',
      createFailed: 'Erro ao cadastrar fornecedor',
    },
  });
  const { control } = form;
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Form form={form} onSubmit={save} onError={onError} aria-label="Fornecedor">
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2, mb: 2 }}>
          <FormTextField control={control} name="name" label="Nome" required disabled={!canWrite} />
          <FormTextField
            control={control}
            name="document"
            label="CPF ou CNPJ"
            mask={maskDocument}
            disabled={!canWrite}
          />
          <FormTextField control={control} name="contactName" label="Contato" disabled={!canWrite} />
          <FormTextField control={control} name="phone" label="Telefone" disabled={!canWrite} />
          <FormTextField control={control} name="email" label="E-mail" disabled={!canWrite} />
          <FormTextField control={control} name="pixKey" label="Chave Pix" disabled={!canWrite} />
          <Box sx={{ gridColumn: '1 / -1' }}>
            <FormTextField
              control={control}
              name="notes"
              label="Observações"
              multiline
              minRows={2}
              disabled={!canWrite}
            />
          </Box>
        </Box>
        <RecordFormActions editing={Boolean(current)} canWrite={canWrite} list={LIST} />
      </Form>
    </Paper>
  );
}
