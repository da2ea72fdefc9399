import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessage } from '../lib/api.ts';

/** A query that failed to load: what failed ("Não foi possível carregar os clientes."), why, and a retry. */
export function LoadError({ what, error, onRetry }: { what?: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Tentar novamente
        </Button>
      }
    >
      {what && `${what} `}
      {errorMessage(error)}
    </Alert>
  );
}
