import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { errorMessage } from '../lib/api.ts';
import { useIdFromPath } from '../lib/useIdFromPath.ts';
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
