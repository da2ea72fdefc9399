/** What the marketplace feature offers the other features (issue 35): nothing yet, pages only. */
export { useMarketplaceOrders } from './api.ts';
