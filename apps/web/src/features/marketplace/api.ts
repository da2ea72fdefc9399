import { marketplaceApi } from '@balcao/core/endpoints/marketplace';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/** The marketplace inbox and accounts (issue 35). */
export const marketplaceQueries = {
  accounts: () => queryOf(marketplaceApi.accounts, {}),
  orders: (view: 'open' | 'all') => queryOf(marketplaceApi.orders, { query: { view } }),
  mappings: () => queryOf(marketplaceApi.mappings, {}),
};

export const useMarketplaceAccounts = () => useQuery(marketplaceQueries.accounts());
export const useMarketplaceOrders = (view: 'open' | 'all') => useQuery(marketplaceQueries.orders(view));
export const useMarketplaceMappings = () => useQuery(marketplaceQueries.mappings());

export const useCreateAccount = () => useCall(marketplaceApi.createAccount);
export const useUpdateAccount = () => useCall(marketplaceApi.updateAccount);
export const useConfirmOrder = () => useCall(marketplaceApi.confirm);
export const useRejectOrder = () => useCall(marketplaceApi.reject);
export const useAnswerCancellation = () => useCall(marketplaceApi.answerCancellation);
export const useMapItem = () => useCall(marketplaceApi.map);
