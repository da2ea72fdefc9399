import { formatCents } from '@balcao/core/money';
import type { PixRefund } from '@balcao/core/pixCharge';
import Alert from '@mui/material/Alert';
import { usePixRefunds } from './api.ts';

/**
 * A canceled sale's Pix refunds (devoluções, issue 33): pending until the bank confirms, refused shown
 * as refused with the bank's reason, never as done.
 */
export function PixRefunds({ saleId }: { saleId: number }) {
  const refunds = usePixRefunds(saleId);
  return <PixRefundList refunds={refunds.data ?? []} />;
}

/** Refunds as the bank reports them (a canceled sale's, or a canceled budget's link Pix). */
export function PixRefundList({ refunds }: { refunds: readonly PixRefund[] }) {
  if (!refunds.length) return null;
  return (
    <>
      {refunds.map((r) => (
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
