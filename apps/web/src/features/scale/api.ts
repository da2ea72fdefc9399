import { productApi } from '@balcao/core/endpoints/product';
import { settingsApi } from '@balcao/core/endpoints/settings';
import { useQuery } from '@tanstack/react-query';
import { call, queryOf, useCall } from '../../lib/client.ts';

/** Issue 36: the shop's scale label layout and the PDV's weighed-label lookup. */
export const scaleQueries = {
  settings: () => ({ ...queryOf(settingsApi.scale), staleTime: 60_000 }),
};

export const useScaleSettings = () => useQuery(scaleQueries.settings());
export const useSaveScaleSettings = () => useCall(settingsApi.saveScale);

/** A weighed label scanned at the PDV: the product and the line's weight and amount. */
export const fetchWeighedLabel = (code: string) =>
  call(productApi.weighed, { params: { code: code.trim() } });
