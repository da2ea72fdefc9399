import type { Coupon, CouponInput } from '@balcao/core/coupon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { detailQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** What the form sends (spec 7): the parsed input plus the caller's client and the loaded updatedAt. */
export type CouponPayload = Omit<CouponInput, 'client'> & { client: { id: number }; updatedAt?: string };

export const couponKeys = queryKeys('coupon');

export const fetchCoupons = (clientId: number) => apiFetch<Coupon[]>(`/coupon/client/${clientId}`);
export const fetchCoupon = (id: number) => apiFetch<Coupon>(`/coupon/${id}`);
export const postCoupon = (body: CouponPayload) => apiFetch<Coupon>('/coupon', { method: 'POST', body });
export const putCoupon = (id: number, body: CouponPayload) =>
  apiFetch<Coupon>(`/coupon/${id}`, { method: 'PUT', body });
export const removeCoupon = (id: number) => apiFetch<Coupon>(`/coupon/${id}`, { method: 'DELETE' });

/** The client's coupons (spec 7: GET /coupon/client/{clientId}, an array). */
export function useCoupons(clientId: number | undefined) {
  return useQuery({
    queryKey: couponKeys.list(clientId ?? 0),
    queryFn: () => fetchCoupons(clientId!),
    enabled: Boolean(clientId),
  });
}

export function useCoupon(id: number | undefined) {
  return useQuery(detailQuery(couponKeys, id, fetchCoupon));
}

export function useCreateCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postCoupon,
    onSuccess: (coupon) => {
      queryClient.setQueryData(couponKeys.detail(coupon.id), coupon);
      return queryClient.invalidateQueries({ queryKey: couponKeys.lists() });
    },
  });
}

export function useUpdateCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CouponPayload }) => putCoupon(id, body),
    onSuccess: (coupon) => {
      queryClient.setQueryData(couponKeys.detail(coupon.id), coupon);
      return queryClient.invalidateQueries({ queryKey: couponKeys.lists() });
    },
  });
}

/** Deletes, then the list reloads whatever happened (spec 8: a failed delete silently reloads). */
export function useDeleteCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCoupon,
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: couponKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: couponKeys.lists() });
    },
  });
}
