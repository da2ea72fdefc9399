import type { Resource } from '@balcao/core/contract';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The one query-key convention: every key starts with the API resource its data comes from
 * ('sale', 'customer', 'product-category'...), then 'list' or 'detail' or another view of it. Any
 * feature can so name (and invalidate) another resource's data without importing that feature.
 */
export function queryKeys<R extends Resource>(resource: R) {
  const all = [resource] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    /** One list: the client and whatever selects its rows (query, page, purpose). */
    list: (clientId: number, ...params: unknown[]) => [...all, 'list', clientId, ...params] as const,
    details: () => [...all, 'detail'] as const,
    detail: (id: number) => [...all, 'detail', id] as const,
    /** Any other view of the resource (the current register, a report, settings). */
    view: (name: string, ...params: unknown[]) => [...all, name, ...params] as const,
  };
}

/**
 * The resources whose shown figures a change of one resource moves: a sale moves the register's
 * totals, the products' stock and the customer's credit and delinquency.
 */
const AFFECTED: Partial<Record<Resource, readonly Resource[]>> = {
  sale: ['sale', 'cash-register', 'product', 'stock', 'customer', 'home', 'finance'],
  receivable: ['sale', 'customer', 'cash-register', 'home'],
  'cash-register': ['cash-register', 'home'],
  stock: ['stock', 'product', 'home'],
  /** The product form, a variant's stock and the CSV import set levels: the stock card moves (issue 30). */
  product: ['product', 'stock', 'home'],
  /** A budget's stock reservation moves what the stock screens show as available. */
  budget: ['budget', 'stock'],
  /** A payable paid or reversed moves the register (cash at the till) and the cash flow and DRE. */
  payable: ['payable', 'cash-register', 'finance', 'home'],
  supplier: ['supplier', 'payable'],
};

/**
 * Marks stale every query of the changed resources and of those they move (AFFECTED); the ones on
 * screen refetch, each once. Used by the socket's `change` events and by mutations that touch
 * another feature's data.
 */
export function invalidateResources(queryClient: QueryClient, changed: readonly Resource[]) {
  const resources = new Set(changed.flatMap((r) => AFFECTED[r] ?? [r]));
  return Promise.all([...resources].map((r) => queryClient.invalidateQueries({ queryKey: [r] })));
}
