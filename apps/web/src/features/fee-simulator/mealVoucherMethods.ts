import { isMealVoucher } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';

/**
 * The payment methods a payment form offers (issue 33): every method but the meal voucher brands the
 * shop has not enabled. A method already chosen stays (an edit of a payment made before a brand was
 * turned off).
 */
export function offeredMethods<M extends PaymentMethod>(
  methods: readonly M[],
  enabledVouchers: readonly PaymentMethod[],
  keep?: PaymentMethod,
): M[] {
  return methods.filter((m) => !isMealVoucher(m) || enabledVouchers.includes(m) || m === keep);
}
