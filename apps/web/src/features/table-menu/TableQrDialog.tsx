import { tableMenuApi } from '@balcao/core/endpoints/tableMenu';
import { parseTableList, TABLE_QR_LIST_MESSAGE } from '@balcao/core/tableMenu';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { call, download } from '../../lib/client.ts';

/**
 * "QR Codes das mesas" on the comandas page (issue 35): the tables to print ("1-10, 12"), a PDF with one
 * card per table. The same tables print the same QRs; "Gerar novos" first replaces them (a lost or
 * copied card stops working).
 */
export function TableQrDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [tables, setTables] = useState('1-10');
  const [renew, setRenew] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const labels = parseTableList(tables);

  const print = async () => {
    if (!labels) return;
    setBusy(true);
    setError(null);
    try {
      if (renew) for (const tableLabel of labels) await call(tableMenuApi.qr, { body: { tableLabel } });
      await download(tableMenuApi.qrPdf, { query: { tables } }, 'qrcodes-mesas.pdf');
      setRenew(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="table-qr-title">
      <DialogTitle id="table-qr-title">QR Codes das mesas</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Um cartão por mesa, com o número e o QR Code do cardápio. O cliente aponta a câmera e faz o pedido
          pelo celular.
        </Typography>
        <TextField
          fullWidth
          label="Mesas"
          value={tables}
          onChange={(e) => setTables(e.target.value)}
          error={labels === null}
          helperText={labels === null ? TABLE_QR_LIST_MESSAGE : `${labels.length} cartões`}
        />
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Checkbox checked={renew} onChange={(e) => setRenew(e.target.checked)} />}
          label="Gerar novos QR Codes (os impressos antes deixam de funcionar)"
        />
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
        <Button variant="contained" disabled={!labels || busy} onClick={print}>
          Imprimir (PDF)
        </Button>
      </DialogActions>
    </Dialog>
  );
}
