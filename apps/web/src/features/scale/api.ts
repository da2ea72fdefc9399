import { productApi } from '@balcao/core/endpoints/product';
import { settingsApi } from '@balcao/core/endpoints/settings';
import type { ScaleSettings } from '@balcao/core/scale/weighedLabel';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, queryOf, useCall } from '../../lib/client.ts';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';

/** Issue 36: the shop's scale label layout and the PDV's weighed-label lookup. */
export const scaleQueries = {
  settings: () => ({ ...queryOf(settingsApi.scale), staleTime: 60_000 }),
};

/**
 * The layout as last read from the server, kept in the browser (removed at logout like the rest of the
 * persisted state): a PDV opened or reloaded offline reads weighed labels with the shop's layout and
 * its scale's rounding, not with none (issue 21's offline PDV, issue 36).
 */
const KEPT_SCALE_SETTINGS = 'scaleSettings';

export function useScaleSettings() {
  const query = useQuery({
    ...scaleQueries.settings(),
    // What was kept starts the query as old data: online it is read again at once.
    initialData: () => loadPersisted<ScaleSettings | undefined>(KEPT_SCALE_SETTINGS, undefined),
    initialDataUpdatedAt: 0,
  });
  const { data, dataUpdatedAt } = query;
  useEffect(() => {
    if (data && dataUpdatedAt > 0) savePersisted(KEPT_SCALE_SETTINGS, data);
  }, [data, dataUpdatedAt]);
  return query;
}
export const useSaveScaleSettings = () => useCall(settingsApi.saveScale);

/** A weighed label scanned at the PDV: the product and the line's weight and amount. */
export const fetchWeighedLabel = (code: string) =>
  call(productApi.weighed, { params: { code: code.trim() } });
