import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { type AppForm, Form, FormError, SubmitButton } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { formatDateTime } from '../../lib/format.ts';

/** "Alterado por Ana em 20/11/2026 10:00", or that the page was never saved. */
function ChangedBy({
  updatedAt,
  updatedBy,
}: {
  updatedAt: string | null;
  updatedBy: { name: string } | null;
}) {
  return (
    <Typography variant="body2" color="text.secondary" data-testid="changed-by">
      {updatedAt
        ? `Última alteração: ${updatedBy?.name ?? 'usuário removido'} em ${formatDateTime(updatedAt)}`
        : 'Ainda não alterado: valores padrão.'}
    </Typography>
  );
}

/** A settings page's loading and load error around its form. */
export function SettingsQuery<T>({
  query,
  children,
}: {
  query: { data?: T; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError || !query.data)
    return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

/**
 * A settings page (issue 14): the title, who changed it last, the form wrapper, the read-only note
 * for who may only look, and "Salvar" for who may write. Saved and failed saves show in a snackbar.
 */
export function SettingsForm<V extends FieldValues, Out>({
  title,
  label,
  form,
  onSubmit,
  changedBy,
  canWrite,
  readOnlyNote,
  children,
}: {
  title: string;
  label: string;
  form: AppForm<V, Out>;
  onSubmit: (values: Out) => Promise<unknown>;
  changedBy: { updatedAt: string | null; updatedBy: { name: string } | null };
  canWrite: boolean;
  readOnlyNote: string;
  children: ReactNode;
}) {
  const { state, show, close } = useFeedback();
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack sx={{ mb: 2, gap: 0.5 }}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <ChangedBy {...changedBy} />
      </Stack>
      <Form
        form={form}
        aria-label={label}
        onSubmit={async (values) => {
          await onSubmit(values);
          show({ severity: 'success', title: 'Configurações salvas' });
        }}
        onError={(message) => show({ severity: 'error', title: 'Erro ao salvar', message })}
      >
        {!canWrite && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {readOnlyNote}
          </Alert>
        )}
        <Stack sx={{ gap: 2 }}>{children}</Stack>
        <Box sx={{ mt: 2 }}>
          <FormError />
        </Box>
        {canWrite && (
          <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2 }}>
            <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
          </Stack>
        )}
      </Form>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}

/** A titled card of fields inside a settings page. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The version a settings form edits, kept in step with the data. After its own save the form shows
 * what was saved (`saved`). When another user's save arrives (socket) and the form has no unsaved
 * edits, it shows the new values; with edits pending it keeps them and its old version, so saving
 * answers 409 instead of overwriting the other user's change.
 */
export function useSyncedVersion<V extends FieldValues, Out, D extends { updatedAt: string | null }>(
  form: AppForm<V, Out>,
  data: D,
  toValues: (data: D) => V,
): { version: string | null; saved: (data: D) => void } {
  const [version, setVersion] = useState(data.updatedAt);
  const { isDirty } = form.formState;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the data's version only
  useEffect(() => {
    if (data.updatedAt === version || isDirty) return;
    form.reset(toValues(data));
    setVersion(data.updatedAt);
  }, [data.updatedAt]);
  const saved = (next: D) => {
    form.reset(toValues(next));
    setVersion(next.updatedAt);
  };
  return { version, saved };
}
