import { surchargeFor } from '@balcao/core/fees';
import { formatCents } from '@balcao/core/money';
import { usePdvFeeTable } from './api.ts';

/**
 * For the PDV's installment picker: " · acréscimo R$ 139,06", what n installments add to an amount
 * so the shop nets it with its active rate table (X / (1 - r) - X). Empty while the display is off
 * (the simulator's setting, off by default), for other methods and for counts the table lacks.
 */
export function usePdvSurchargeLabel(enabled: boolean): (amountCents: number, n: number) => string {
  const table = usePdvFeeTable(enabled).data;
  return (amountCents, n) => {
    if (!enabled || !table || !(amountCents > 0)) return '';
    const surcharge = surchargeFor(table, amountCents, n);
    return surcharge === null ? '' : ` · acréscimo ${formatCents(surcharge)}`;
  };
}
