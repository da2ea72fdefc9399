import { formatCents } from '@balcao/core/money';
import type { NfeEntryItem, NfeReview } from '@balcao/core/payable';
import { can, WRITE } from '@balcao/core/routes';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { useImportNfe, useImportNfeEntry, useReviewNfe } from './api.ts';
import { NfeReviewDialog } from './NfeReviewDialog.tsx';

const bills = (count: number) => `${count} ${count === 1 ? 'conta a pagar' : 'contas a pagar'}`;

/**
 * "Importar NF-e (XML)" on the payables list (issue 34): the supplier's nfeProc is read and checked
 * (POST /v1/payable/nfe/review: the official schema, the shop's CNPJ as recipient, the items matched to
 * products), then reviewed: a stock entry with its bills (POST /v1/payable/nfe/entry), or the bills only
 * (POST /v1/payable/nfe) for whoever does not move stock or a note that is not goods for sale.
 */
export function NfeImportButton({ onFeedback }: { onFeedback: (f: Feedback) => void }) {
  const { user } = useSession();
  const reviewNfe = useReviewNfe();
  const importNfe = useImportNfe();
  const importEntry = useImportNfeEntry();
  const [open, setOpen] = useState<{ file: File; xml: string; review: NfeReview } | null>(null);

  const read = async (file: File | undefined) => {
    if (!file) return;
    try {
      const review = await reviewNfe.mutateAsync({ file });
      setOpen({ file, xml: await file.text(), review });
    } catch (error) {
      onFeedback({ severity: 'error', title: 'Erro ao importar a NF-e', message: errorMessage(error) });
    }
  };
  const billsOnly = async () => {
    if (!open) return;
    const done = await importNfe.mutateAsync({ query: {}, file: open.file });
    setOpen(null);
    onFeedback({
      severity: 'success',
      title: `NF-e ${done.number} importada`,
      message: `${bills(done.items.length)} de ${done.supplier.name}, ${formatCents(done.totalCents)}${done.supplier.created ? ' (fornecedor cadastrado)' : ''}`,
    });
  };
  const entry = async (items: NfeEntryItem[]) => {
    if (!open) return;
    const done = await importEntry.mutateAsync({ body: { xml: open.xml, items } });
    setOpen(null);
    const created = done.productsCreated;
    onFeedback({
      severity: 'success',
      title: `NF-e ${done.number} no estoque`,
      message: `${done.movements} ${done.movements === 1 ? 'item entrou' : 'itens entraram'} no estoque${created ? ` (${created} ${created === 1 ? 'produto novo' : 'produtos novos'})` : ''} e ${bills(done.items.length)} de ${done.supplier.name}, ${formatCents(done.totalCents)}`,
    });
  };

  return (
    <>
      <Button
        component="label"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        disabled={reviewNfe.isPending}
      >
        {reviewNfe.isPending ? 'Lendo a NF-e...' : 'Importar NF-e (XML)'}
        <Box
          component="input"
          type="file"
          accept=".xml,application/xml,text/xml"
          aria-label="XML da NF-e"
          data-testid="nfe-file"
          sx={{ display: 'none' }}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
            void read(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Button>
      {open && user && (
        <NfeReviewDialog
          review={open.review}
          clientId={user.client.id}
          canEnterStock={can(user.userType.id, WRITE.stock)}
          busy={importNfe.isPending || importEntry.isPending}
          onClose={() => setOpen(null)}
          onEntry={entry}
          onBillsOnly={billsOnly}
        />
      )}
    </>
  );
}
