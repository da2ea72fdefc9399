import { CUSTOMER_CSV_COLUMNS, type CustomerImportResult } from '@balcao/core/customer';
import { plural } from '@balcao/core/plural';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readCsvFile, undecodedWarning } from '../../lib/csvFile.ts';
import { useImportCustomers } from './api.ts';

type Props = { open: boolean; clientId: number; onClose: () => void; onImported: (created: number) => void };

const columnsHelp = CUSTOMER_CSV_COLUMNS.filter((c) => c.importable)
  .map((c) => c.key)
  .join(';');

/**
 * CSV import: choose a file, see the preview (valid lines and each line's errors), then import.
 * With errors, nothing is imported unless the user chooses to skip the bad lines.
 */
export function CustomerImportDialog({ open, clientId, onClose, onImported }: Props) {
  const titleId = useId();
  const mutation = useImportCustomers(clientId);
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [preview, setPreview] = useState<CustomerImportResult | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [undecoded, setUndecoded] = useState<string | null>(null);

  const reset = () => {
    setCsv(null);
    setFileName('');
    setPreview(null);
    setSkipInvalid(false);
    setError(null);
    setUndecoded(null);
  };
  const close = () => {
    if (mutation.isPending) return;
    reset();
    onClose();
  };

  const onFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    setFileName(file.name);
    try {
      const { text, undecodedLines } = await readCsvFile(file);
      setCsv(text);
      setUndecoded(undecodedWarning(undecodedLines));
      setPreview(await mutation.mutateAsync({ csv: text, mode: 'preview', skipInvalid: false }));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const onImport = async () => {
    if (!csv) return;
    setError(null);
    try {
      const result = await mutation.mutateAsync({ csv, mode: 'commit', skipInvalid });
      onImported(result.created);
      reset();
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const invalidLines = preview?.lines.filter((l) => l.errors.length > 0) ?? [];
  const canImport = preview && preview.valid > 0 && (preview.invalid === 0 || skipInvalid);

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>Importar clientes (CSV)</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            A primeira linha deve ter os nomes das colunas, separadas por ponto e vírgula ou vírgula. Só
            "nome" é obrigatória. Colunas aceitas: {columnsHelp}. Datas em dd/mm/aaaa, valores como 1.500,00.
            O arquivo exportado por esta tela pode ser importado de volta.
          </Typography>
          <Button
            component="label"
            variant="outlined"
            startIcon={<UploadFileIcon />}
            disabled={mutation.isPending}
          >
            {fileName ? `Arquivo: ${fileName}` : 'Escolher arquivo CSV'}
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="customer-import-file"
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </Button>
          {mutation.isPending && <LinearProgress aria-label="Processando arquivo" />}
          {error && <Alert severity="error">{error}</Alert>}
          {preview && (
            <>
              <Alert severity={preview.invalid === 0 ? 'success' : 'warning'} data-testid="import-summary">
                {plural(preview.total, 'linha', 'linhas')} no arquivo:{' '}
                {plural(preview.valid, 'pronta', 'prontas')} para importar
                {preview.invalid > 0 ? `, ${preview.invalid} com erro` : ''}.
              </Alert>
              {undecoded && (
                <Alert severity="warning" data-testid="import-encoding-warning">
                  {undecoded}
                </Alert>
              )}
              {invalidLines.length > 0 && (
                <>
                  <ListTable label="Linhas com erro" head={['Linha', 'Nome', 'Erros']}>
                    {invalidLines.slice(0, 200).map((l) => (
                      <TableRow key={l.line}>
                        <TableCell>{l.line}</TableCell>
                        <TableCell>{l.name || '—'}</TableCell>
                        <TableCell>{l.errors.join('; ')}</TableCell>
                      </TableRow>
                    ))}
                  </ListTable>
                  {invalidLines.length > 200 && (
                    <Typography variant="caption">Mostrando as 200 primeiras linhas com erro.</Typography>
                  )}
                  <FormControlLabel
                    control={
                      <Checkbox checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
                    }
                    label="Importar só as linhas válidas e ignorar as linhas com erro"
                  />
                </>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={mutation.isPending}>
          Cancelar
        </Button>
        <Button variant="contained" onClick={onImport} disabled={!canImport || mutation.isPending}>
          {mutation.isPending && preview
            ? 'Importando...'
            : `Importar ${plural(preview?.valid ?? 0, 'cliente', 'clientes')}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
