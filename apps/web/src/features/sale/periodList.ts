import { useState } from 'react';
import { useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useSellers } from './api.ts';

/**
 * What a list of documents over a period (sales, budgets) keeps: the session's user and shop, the
 * filters in the URL (useListParams with `parse`, its `query` as `filters`), the export's error and the sellers to filter by.
 */
export function usePeriodList<Q extends object>(parse: (params: URLSearchParams) => Q) {
  const { user } = useSession();
  const clientId = user?.client.id;
  const { query: filters, ...list } = useListParams(parse);
  const [exportError, setExportError] = useState<string | null>(null);
  const sellers = useSellers(clientId, user?.userType.id);
  return { user, clientId, filters, ...list, exportError, setExportError, sellers };
}
