import { couponApi } from '@balcao/core/endpoints/coupon';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/**
 * Coupons (spec 7), the model of a feature's api.ts: query options per read of `couponApi` (core's
 * declarations) and one mutation per write; components use these, never a path.
 */
export const couponQueries = {
  /** The client's coupons (GET /coupon/client/{clientId}, an array). */
  list: (clientId: number) => queryOf(couponApi.list, { params: { clientId } }),
  /** One coupon; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(couponApi.get, { params: { id } }), retry: false }),
};

export function useCoupons(clientId: number | undefined) {
  return useQuery({ ...couponQueries.list(clientId ?? 0), enabled: Boolean(clientId) });
}

export function useCoupon(id: number | undefined) {
  return useQuery({ ...couponQueries.detail(id ?? 0), enabled: Boolean(id) });
}

export const useCreateCoupon = () => useCall(couponApi.create);
export const useUpdateCoupon = () => useCall(couponApi.update);
/** Deletes, then the list reloads whatever happened (spec 8: a failed delete silently reloads). */
export const useDeleteCoupon = () => useCall(couponApi.remove, { refreshOnError: true });
