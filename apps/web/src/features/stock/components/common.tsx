import Alert from '@mui/material/Alert';
import { ApiError } from '../../../lib/api.ts';

/** Issues of a 400 answer ("items.0.quantity") as schema-like paths. */
export function apiIssues(error: unknown): { path: PropertyKey[]; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues.map((i) => ({
    path: i.path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    message: i.message,
  }));
}

/** Back-office users outside WRITE.stock see the stock pages read only. */
export function ReadOnlyNotice() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Você pode consultar o estoque, mas não registrar movimentações.
    </Alert>
  );
}
