import { formatBytes } from '@balcao/core/backup';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

type ExportKind = 'csv' | 'xlsx' | 'pdf';
const EXPORT_LABELS: Record<ExportKind, string> = { csv: 'CSV', xlsx: 'XLSX', pdf: 'PDF' };

/** Bytes received so far and the file's size when the answer says it (a streamed file does not). */
type OnProgress = (received: number, total: number | null) => void;

type ExportAction = {
  kind: ExportKind;
  /** The button's text. */
  label: string;
  /** The button's text while its export runs (the label when none). */
  busyLabel?: string;
  /** The download itself (`download` of lib/client.ts), reporting the bytes received. */
  start: (onProgress: OnProgress) => Promise<unknown>;
};

/** What a running export shows: "Baixando CSV: 12,3 MB recebidos" (a streamed file has no size to show a share of). */
function progressText(kind: ExportKind, received: number, total: number | null): string {
  const what = EXPORT_LABELS[kind];
  if (total) return `Baixando ${what}: ${formatBytes(received)} de ${formatBytes(total)}`;
  return received === 0 ? `Gerando ${what}...` : `Baixando ${what}: ${formatBytes(received)} recebidos`;
}

/**
 * The reports' export bar (issue 34): which table to export, one button per format, and while a file
 * downloads the bytes received with a progress bar (a year of lines is hundreds of MB). One export at a
 * time per bar; a failure goes to `onError`.
 */
export function ExportBar<S extends string>({
  select,
  actions,
  onError,
}: {
  /** Which table to export; none when the page has one (the day's close). */
  select?: {
    label: string;
    value: S;
    options: readonly S[];
    labels: Record<S, string>;
    onChange: (value: S) => void;
  };
  actions: ExportAction[];
  onError: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [progress, setProgress] = useState<{ received: number; total: number | null }>({
    received: 0,
    total: null,
  });
  const run = async (action: ExportAction) => {
    setBusy(action.kind);
    setProgress({ received: 0, total: null });
    try {
      await action.start((received, total) => setProgress({ received, total }));
    } catch (error) {
      onError(error);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack spacing={1}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        {select && (
          <TextField
            select
            size="small"
            label={select.label}
            value={select.value}
            onChange={(e) => select.onChange(e.target.value as S)}
            sx={{ minWidth: 240 }}
          >
            {select.options.map((s) => (
              <MenuItem key={s} value={s}>
                {select.labels[s]}
              </MenuItem>
            ))}
          </TextField>
        )}
        {actions.map((action, i) => (
          <Button
            key={action.kind}
            variant="outlined"
            startIcon={i === 0 ? <DownloadIcon /> : undefined}
            disabled={busy !== null}
            onClick={() => run(action)}
          >
            {busy === action.kind && action.busyLabel ? action.busyLabel : action.label}
          </Button>
        ))}
      </Stack>
      {busy !== null && (
        <Box role="status" aria-live="polite" data-testid="export-progress">
          <Typography variant="body2" color="text.secondary">
            {progressText(busy, progress.received, progress.total)}
          </Typography>
          <LinearProgress
            variant={progress.total ? 'determinate' : 'indeterminate'}
            value={progress.total ? Math.min(100, (progress.received / progress.total) * 100) : undefined}
            aria-label={`Exportação ${EXPORT_LABELS[busy]}`}
          />
        </Box>
      )}
    </Stack>
  );
}
