import { type ProductCategoryInput, productCategoryInputSchema } from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useHandedOverMessage } from '../../components/listPage.tsx';
import { RecordFormCard, RecordFormPage, useEditId } from '../../components/RecordFormPage.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { type NamedRecord, useCreateNamed, useNamedRecord, useUpdateNamed } from './api.ts';
import type { NamedConfig } from './namedConfig.ts';

/** New/edit page of a category or brand. */
export function NamedFormPage({ config }: { config: NamedConfig }) {
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);

  const edit = useEditId(config.basePath);
  const record = useNamedRecord(config.resource, edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={record}
      title={[config.newTitle, config.editTitle]}
      notFound={config.notFound}
      maxWidth={640}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(record) => (
        <NamedForm key={record?.updatedAt ?? ''} config={config} record={record} onFeedback={show} />
      )}
    </RecordFormPage>
  );
}

function NamedForm({
  config,
  record,
  onFeedback,
}: {
  config: NamedConfig;
  record?: NamedRecord;
  onFeedback: (f: Feedback) => void;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const canWrite = can(user?.userType.id, config.write ?? WRITE.catalog);
  const create = useCreateNamed(config.resource);
  const update = useUpdateNamed(config.resource);
  const form = useAppForm({
    schema: productCategoryInputSchema,
    defaultValues: { name: record?.name ?? '', active: record?.active ?? true },
  });

  const submit = async (values: ProductCategoryInput) => {
    try {
      const saved = record
        ? await update.mutateAsync({
            params: { id: record.id },
            body: { ...values, updatedAt: record.updatedAt },
          })
        : await create.mutateAsync({ body: values });
      if (record) onFeedback({ severity: 'success', title: config.edited });
      else
        navigate(`${config.basePath}/edit/${saved.id}`, {
          replace: true,
          state: { message: config.created },
        });
    } catch (error) {
      // A duplicate name belongs under the name.
      if (error instanceof ApiError && error.code === 'duplicate')
        throw new ApiError(409, error.message, [{ path: 'name', message: error.message }], error.code);
      throw error;
    }
  };

  return (
    <RecordFormCard
      form={form}
      onSubmit={submit}
      onFeedback={onFeedback}
      errorTitle={record ? config.editError : config.createError}
      label={config.title}
      canWrite={canWrite}
      readOnlyNote="Você pode ver este cadastro, mas não alterá-lo."
      list={config.basePath}
      submit={<SubmitButton busyLabel="Salvando...">{record ? 'Salvar' : 'Cadastrar'}</SubmitButton>}
    >
      {record && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {config.countText
            ? config.countText(record.productCount)
            : record.productCount === 1
              ? '1 produto usa este cadastro'
              : `${record.productCount} produtos usam este cadastro`}
        </Typography>
      )}
      <Stack sx={{ gap: 2 }}>
        <FormTextField
          control={form.control}
          name="name"
          label="Nome"
          required
          autoFocus={!record}
          disabled={!canWrite}
          slotProps={{ htmlInput: { maxLength: 80 } }}
        />
        <Controller
          control={form.control}
          name="active"
          render={({ field }) => (
            <FormControlLabel
              label="Ativa"
              disabled={!canWrite}
              control={
                <Switch checked={field.value ?? true} onChange={(e) => field.onChange(e.target.checked)} />
              }
            />
          )}
        />
      </Stack>
    </RecordFormCard>
  );
}
