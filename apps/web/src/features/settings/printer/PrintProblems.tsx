import { PRINT_JOB_STATUS_LABELS } from '@balcao/core/printingText';
import { can, STAFF } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useSession } from '../../auth/index.ts';
import { useMyPrintJobs, usePrintAction } from './api.ts';

/** Problems older than this are no longer raised on every page (they stay on the printer page). */
const RECENT_MS = 2 * 60 * 60_000;

/**
 * The sender's failed or unconfirmed print jobs (a receipt the counter printer did not print), on
 * every page, each with "Tentar de novo" or dismissible. Follows the socket's print-job changes.
 */
export function PrintProblems() {
  const { user } = useSession();
  const enabled = can(user?.userType.id, STAFF);
  const [dismissed, setDismissed] = useState<number[]>([]);
  const jobs = useMyPrintJobs(enabled);
  const retry = usePrintAction();
  const now = Date.now();
  const problems = (jobs.data ?? []).filter(
    (j) =>
      (j.status === 'failed' || j.status === 'unconfirmed') &&
      now - Date.parse(j.createdAt) < RECENT_MS &&
      !dismissed.includes(j.id),
  );
  if (!enabled || problems.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {problems.slice(0, 3).map((job) => (
        <Alert
          key={job.id}
          severity="error"
          data-testid="print-problem"
          onClose={() => setDismissed((list) => [...list, job.id])}
          action={
            <Button
              color="inherit"
              size="small"
              disabled={retry.isPending}
              onClick={() => retry.mutate({ kind: 'retry', id: job.id })}
            >
              Tentar de novo
            </Button>
          }
        >
          {`${job.payload.title} (${job.profile.name}): ${PRINT_JOB_STATUS_LABELS[job.status].toLowerCase()}`}
          {job.error ? ` - ${job.error}` : ''}
        </Alert>
      ))}
    </Stack>
  );
}
