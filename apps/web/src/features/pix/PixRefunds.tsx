import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import { usePixRefunds } from './api.ts';

/**
 * A canceled sale's Pix refunds (devoluções, issue 33): pending until the bank confirms, refused shown
 * as refused with the bank's reason, never as done.
 */
export function PixRefunds({ saleId }: { saleId: number }) {
  const refunds = usePixRefunds(saleId);
  if (!refunds.data?.length) return null;
  return (
    <>
      {refunds.data.map((r) => (
        <Alert
          key={r.id}
          data-testid="pix-refund"
          sx={{ mt: 1 }}
          severity={r.status === 'DEVOLVIDO' ? 'success' : r.status === 'NAO_REALIZADO' ? 'error' : 'info'}
        >
          Pix {formatCents(r.amountCents)}: {r.statusLabel}
          {r.reason ? ` (${r.reason})` : ''}
          {r.status === 'NAO_REALIZADO' ? '. Devolva ao cliente por outro meio.' : ''}
        </Alert>
      ))}
    </>
  );
}
