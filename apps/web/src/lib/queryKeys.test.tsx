import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateResources } from './queryKeys.ts';

describe('invalidateResources', () => {
  it("marks a product's stock card stale when a product write (form, variant stock, import) lands (issue 30)", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['stock', 'card', 1, 1, 20], { items: [] });
    queryClient.setQueryData(['customer', 'list', 1], { items: [] });
    await invalidateResources(queryClient, ['product']);
    expect(queryClient.getQueryState(['stock', 'card', 1, 1, 20])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['customer', 'list', 1])?.isInvalidated).toBe(false);
  });
});
