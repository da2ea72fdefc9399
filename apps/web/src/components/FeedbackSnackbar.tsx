import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useState } from 'react';

/** Spec 9: the snackbar hides after 6000 ms. */
const SNACKBAR_MS = 6000;

export type Feedback = {
  severity: 'success' | 'error' | 'info' | 'warning';
  title: string;
  message?: string;
};
type FeedbackState = { feedback: (Feedback & { key: number }) | null; open: boolean };

/** State of one feedback snackbar: show(feedback) opens it, close() hides it (the text stays while it fades). */
export function useFeedback() {
  const [state, setState] = useState<FeedbackState>({ feedback: null, open: false });
  const show = useCallback(
    (feedback: Feedback) => setState({ feedback: { ...feedback, key: Date.now() }, open: true }),
    [],
  );
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return { state, show, close };
}

/** The result of an action: a title ("Cupom criado com sucesso") and, for errors, the server's message. */
export function FeedbackSnackbar({ state, onClose }: { state: FeedbackState; onClose: () => void }) {
  const { feedback, open } = state;
  return (
    <Snackbar
      key={feedback?.key}
      open={open}
      autoHideDuration={SNACKBAR_MS}
      onClose={(_, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      // Above the phone's bottom bar (56 px, shown below 900 px): a toast never covers its buttons.
      sx={{ bottom: { xs: 72, md: 24 } }}
    >
      <Alert
        severity={feedback?.severity ?? 'info'}
        variant="filled"
        onClose={onClose}
        data-testid="feedback-snackbar"
        sx={{ width: '100%' }}
      >
        {feedback?.message ? <AlertTitle>{feedback.title}</AlertTitle> : feedback?.title}
        {feedback?.message}
      </Alert>
    </Snackbar>
  );
}
