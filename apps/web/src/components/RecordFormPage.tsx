import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode, useState } from 'react';
import { type FieldValues, useFormState } from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../lib/api.ts';
import { useIdFromPath } from '../lib/useIdFromPath.ts';
import type { Feedback } from './FeedbackSnackbar.tsx';
import { type AppForm, Form, FormError, SubmitButton } from './form.tsx';
import { Loading } from './Loading.tsx';

/** Which record a new/edit page shows: on `${base}/edit/{id}` its id (undefined for a bad id). */
export function useEditId(base: string) {
  const id = useIdFromPath(`${base}/edit`);
  const isEdit = id !== undefined;
  const badId = isEdit && Number.isNaN(id);
  return { isEdit, badId, id: isEdit && !badId ? id : undefined };
}

/**
 * The frame of a record's new and edit page (`${base}/new`, `${base}/edit/{id}`): the title, then on
 * an edit "não encontrado" for a bad id, the spinner, or the load error, until the record is in; then
 * `children(record)` (undefined on the new page), keyed by the path so the form starts over on each
 * page. `after` follows the body (the page's snackbar).
 *
 *   const edit = useEditId(LIST);
 *   const customer = useCustomer(edit.id);
 *   <RecordFormPage edit={edit} record={customer} ...>{(c) => <CustomerForm customer={c} />}</RecordFormPage>
 */
export function RecordFormPage<R>({
  edit: { isEdit, badId },
  record,
  title,
  notFound,
  maxWidth,
  after,
  children,
}: {
  edit: ReturnType<typeof useEditId>;
  /** The record's query (not fetching on the new page). */
  record: UseQueryResult<R>;
  /** [new page, edit page]: "Novo cliente", "Editar cliente". */
  title: readonly [string, string];
  /** "Cliente não encontrado". */
  notFound: string;
  maxWidth: number;
  after?: ReactNode;
  children: (record: R | undefined) => ReactNode;
}) {
  const { pathname } = useLocation();
  let body: ReactNode;
  if (badId) body = <Alert severity="error">{notFound}</Alert>;
  else if (isEdit && record.isPending) body = <Loading />;
  else if (isEdit && record.isError) body = <Alert severity="error">{errorMessage(record.error)}</Alert>;
  else body = <Fragment key={pathname}>{children(isEdit ? record.data : undefined)}</Fragment>;

  return (
    <Box sx={{ maxWidth }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {isEdit ? title[1] : title[0]}
      </Typography>
      {body}
      {after}
    </Box>
  );
}

/**
 * Saving a record page's form (customer, user): `save(body)` on an edit sends the version the record
 * was loaded at, keeps the page on the saved record (`current`, and `reset` puts it in the form) and
 * shows `updated`; on the new page it creates and returns to `list`, which shows `created`. `onError`
 * shows a failed save (`editFailed` / `createFailed`) with the server's message; `setCurrent` takes
 * what else changes the record (a WhatsApp check).
 */
export function useRecordSave<R extends { id: number; updatedAt: string }, B>({
  record,
  create,
  update,
  reset,
  list,
  show,
  messages,
}: {
  record: R | undefined;
  create: { mutateAsync: (body: B) => Promise<unknown> };
  update: { mutateAsync: (edit: { id: number; body: B & { updatedAt: string } }) => Promise<R> };
  reset: (saved: R) => void;
  list: string;
  show: (feedback: Feedback) => void;
  messages: { updated: string; created: string; editFailed: string; createFailed: string };
}) {
  const navigate = useNavigate();
  const [current, setCurrent] = useState(record);
  const save = async (body: B) => {
    if (current) {
      const saved = await update.mutateAsync({
        id: current.id,
        body: { ...body, updatedAt: current.updatedAt },
      });
      setCurrent(saved);
      reset(saved);
      show({ severity: 'success', title: messages.updated });
    } else {
      await create.mutateAsync(body);
      navigate(list, { state: { message: messages.created } });
    }
  };
  const onError = (message: string) =>
    show({ severity: 'error', title: current ? messages.editFailed : messages.createFailed, message });
  return { current, setCurrent, save, onError };
}

/** A record form's end: its own error, "Salvar" for who may write, and the way back to the list. */
export function RecordFormActions({
  editing,
  canWrite,
  list,
}: {
  editing: boolean;
  canWrite: boolean;
  list: string;
}) {
  return (
    <>
      <FormError />
      <Stack direction="row" spacing={1}>
        {canWrite && (
          <SubmitButton busyLabel={editing ? 'Salvando...' : 'Cadastrando...'}>Salvar</SubmitButton>
        )}
        <Button component={RouterLink} to={list}>
          Voltar para a lista
        </Button>
      </Stack>
    </>
  );
}

/**
 * A record form on a card (coupon, product, category, brand): the form, `readOnlyNote` for who may
 * only look, the fields, then "Voltar" to `list` and, for who may write, `submit` (its SubmitButton).
 * A failed save goes to `onFeedback` under `errorTitle`.
 */
export function RecordFormCard<V extends FieldValues, Out>({
  form,
  onSubmit,
  onFeedback,
  errorTitle,
  label,
  canWrite,
  readOnlyNote,
  list,
  submit,
  children,
}: {
  form: AppForm<V, Out>;
  onSubmit: (values: Out) => Promise<unknown> | unknown;
  onFeedback: (feedback: Feedback) => void;
  errorTitle: string;
  label: string;
  canWrite: boolean;
  readOnlyNote: string;
  list: string;
  submit: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form
      form={form}
      onSubmit={onSubmit}
      onError={(message) => onFeedback({ severity: 'error', title: errorTitle, message })}
      aria-label={label}
    >
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        {!canWrite && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {readOnlyNote}
          </Alert>
        )}
        {children}
        <Stack direction="row" sx={{ justifyContent: 'flex-end', gap: 2, mt: 3 }}>
          <BackButton to={list} />
          {canWrite && submit}
        </Stack>
      </Paper>
    </Form>
  );
}

/** "Voltar" to the list; disabled while the form saves. */
function BackButton({ to }: { to: string }) {
  const { isSubmitting } = useFormState();
  return (
    <Button component={RouterLink} to={to} disabled={isSubmitting}>
      Voltar
    </Button>
  );
}
