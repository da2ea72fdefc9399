import { formatCents } from '@balcao/core/money';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useImportNfe } from './api.ts';

/**
 * "Importar NF-e (XML)" on the payables list (issue 34): the supplier's nfeProc becomes its bills, one
 * per duplicata, the supplier found or created by CNPJ (POST /v1/payable/nfe).
 */
export function NfeImportButton({ onFeedback }: { onFeedback: (f: Feedback) => void }) {
  const importNfe = useImportNfe();
  const send = async (file: File | undefined) => {
    if (!file) return;
    try {
      const done = await importNfe.mutateAsync({ query: {}, file });
      const count = done.items.length;
      onFeedback({
        severity: 'success',
        title: `NF-e ${done.number} importada`,
        message: `${count} ${count === 1 ? 'conta a pagar' : 'contas a pagar'} de ${done.supplier.name}, ${formatCents(done.totalCents)}${done.supplier.created ? ' (fornecedor cadastrado)' : ''}`,
      });
    } catch (error) {
      onFeedback({ severity: 'error', title: 'Erro ao importar a NF-e', message: errorMessage(error) });
    }
  };
  return (
    <Button
      component="label"
      variant="outlined"
      startIcon={<UploadFileIcon />}
      disabled={importNfe.isPending}
    >
      {importNfe.isPending ? 'Importando...' : 'Importar NF-e (XML)'}
      <Box
        component="input"
        type="file"
        accept=".xml,application/xml,text/xml"
        aria-label="XML da NF-e"
        data-testid="nfe-file"
        sx={{ display: 'none' }}
        onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
          void send(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </Button>
  );
}
