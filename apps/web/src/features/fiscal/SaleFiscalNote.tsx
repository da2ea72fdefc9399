import { FISCAL_MESSAGES } from '@balcao/core/fiscal';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { openDanfe, useCancelNote, useSaleFiscalNote } from './api.ts';
import { FiscalStatusChip } from './FiscalPage.tsx';

/** A sale's NFC-e on its detail (issue 32): status, DANFE, and the cancel event (110111). */
export function SaleFiscalNote({ saleId }: { saleId: number }) {
  const query = useSaleFiscalNote(saleId);
  const cancel = useCancelNote();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const note = query.data?.note;
  if (!note) return null;
  const confirm = async () => {
    setError(null);
    if (reason.trim().length < 15) return setError(FISCAL_MESSAGES.cancelReason);
    try {
      await cancel.mutateAsync({ params: { id: note.id }, body: { reason } });
      setOpen(false);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Stack spacing={1} aria-label="NFC-e da venda">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="subtitle2">
          NFC-e {note.series}/{note.number}
        </Typography>
        <FiscalStatusChip note={note} />
        <Button size="small" onClick={() => openDanfe(note.id).catch((e) => setError(errorMessage(e)))}>
          DANFE
        </Button>
        {note.status === 'authorised' && (
          <Button size="small" color="error" onClick={() => setOpen(true)}>
            Cancelar NFC-e
          </Button>
        )}
      </Stack>
      {note.statusText && note.status !== 'authorised' && (
        <Typography variant="caption">{note.statusText}</Typography>
      )}
      {error && !open && <Alert severity="error">{error}</Alert>}
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>Cancelar NFC-e nº {note.number}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Justificativa"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              helperText="Pelo menos 15 caracteres"
              autoFocus
            />
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Voltar</Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={cancel.isPending}>
            Cancelar NFC-e
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
