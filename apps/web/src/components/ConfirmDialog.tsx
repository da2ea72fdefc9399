import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { errorMessage } from '../lib/api.ts';
import type { Feedback } from './FeedbackSnackbar.tsx';

type Props = {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button (deletes). */
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A yes/no question before an action that cannot be undone from the screen (e.g. Excluir). */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Confirmar',
  cancelLabel = 'Cancelar',
  destructive = false,
  onConfirm,
  onCancel,
}: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{cancelLabel}</Button>
        <Button onClick={onConfirm} variant="contained" color={destructive ? 'error' : 'primary'} autoFocus>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Deleting a record after a "Excluir" question: `ask(record)` opens it; confirming closes it and runs
 * `remove(record, callbacks)` (a mutation's `mutate`). With `feedback` the result goes to the snackbar:
 * `done(record)` on success, `failed` with the server's message on error. `dialog` is the question to
 * render; `title` and `message` get the record, or null while the dialog fades out.
 */
export function useConfirmDelete<T>({
  title,
  message,
  remove,
  feedback,
}: {
  title: (record: T | null) => string;
  message: (record: T | null) => string;
  remove: (record: T, callbacks: { onSuccess?: () => void; onError?: (error: unknown) => void }) => void;
  feedback?: { show: (feedback: Feedback) => void; done: (record: T) => string; failed: string };
}) {
  const [toDelete, setToDelete] = useState<T | null>(null);
  const confirm = () => {
    if (toDelete === null) return;
    const record = toDelete;
    setToDelete(null);
    if (!feedback) return remove(record, {});
    const { show, done, failed } = feedback;
    remove(record, {
      onSuccess: () => show({ severity: 'success', title: done(record) }),
      onError: (error) => show({ severity: 'error', title: failed, message: errorMessage(error) }),
    });
  };
  const dialog = (
    <ConfirmDialog
      open={toDelete !== null}
      title={title(toDelete)}
      message={message(toDelete)}
      confirmLabel="Excluir"
      destructive
      onConfirm={confirm}
      onCancel={() => setToDelete(null)}
    />
  );
  return { ask: setToDelete, dialog };
}
