import Button from '@mui/material/Button';
import { useState } from 'react';

/** A file the API writes now (PDF, XLSX): busy while it downloads, the error to the page's snackbar. */
export function DownloadButton({
  label,
  busyLabel,
  download,
  onError,
}: {
  label: string;
  busyLabel: string;
  download: () => Promise<unknown>;
  onError: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outlined"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await download();
        } catch (error) {
          onError(error);
        } finally {
          setBusy(false);
        }
      }}
    >
      {busy ? busyLabel : label}
    </Button>
  );
}
