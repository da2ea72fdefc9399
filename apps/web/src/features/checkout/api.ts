import { couponApi } from '@balcao/core/endpoints/coupon';
import { receivableApi } from '@balcao/core/endpoints/receivable';
import { useQuery } from '@tanstack/react-query';
import { call, queryOf } from '../../lib/client.ts';

/**
 * What the checkout kit reads (the PDV, the budget PDV, its conversion and the phone order): a
 * customer's credit and the coupon check through the typed client. The product, customer and user
 * lookups are the sale feature's (`../sale/api.ts`).
 */

export const checkoutQueries = {
  /** A customer's credit before a crediário sale (delinquency, pending, limit, warnings). */
  customerCredit: (customerId: number, creditShopCents: number) =>
    queryOf(receivableApi.customerCredit, { params: { customerId }, query: { creditShopCents } }),
};

export function useCustomerCredit(customerId: number | undefined, creditShopCents: number) {
  return useQuery({
    ...checkoutQueries.customerCredit(customerId ?? 0, creditShopCents),
    enabled: Boolean(customerId),
  });
}

/** Does a coupon code apply to this subtotal? The discount, or an ApiError (404/422) with the reason. */
export const validateCoupon = (body: { code: string; subtotalCents: number; customerId?: number | null }) =>
  call(couponApi.validate, { body });
