import { payableApi, supplierApi } from '@balcao/core/endpoints/payable';
import type { PayableListQuery } from '@balcao/core/payable';
import { useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/** Contas a pagar and suppliers (issue 34): query options per read of `payableApi`/`supplierApi`. */
export const payableQueries = {
  list: (query: Partial<PayableListQuery>) => queryOf(payableApi.list, { query }),
  detail: (id: number) => ({ ...queryOf(payableApi.get, { params: { id } }), retry: false }),
  categories: () => queryOf(payableApi.categories, {}),
  due: () => queryOf(payableApi.due, {}),
  suppliers: (q?: string) => queryOf(supplierApi.list, { query: { pageSize: 100, q } }),
  supplier: (id: number) => ({ ...queryOf(supplierApi.get, { params: { id } }), retry: false }),
};

export const usePayables = (query: Partial<PayableListQuery>) => useQuery(payableQueries.list(query));
export const usePayable = (id: number | undefined) =>
  useQuery({ ...payableQueries.detail(id ?? 0), enabled: Boolean(id) });
/** The bell's due bills (issue 34); refetched with every 'payable' change and on navigation. */
export const usePayableDue = (enabled: boolean) => useQuery({ ...payableQueries.due(), enabled });
export const usePayableCategories = () => useQuery(payableQueries.categories());
export const useSuppliers = (q?: string) => useQuery(payableQueries.suppliers(q));
export const useSupplier = (id: number | undefined) =>
  useQuery({ ...payableQueries.supplier(id ?? 0), enabled: Boolean(id) });

export const useCreatePayable = () => useCall(payableApi.create);
export const useUpdatePayable = () => useCall(payableApi.update);
export const useDeletePayable = () => useCall(payableApi.remove, { refreshOnError: true });
export const usePayPayable = () => useCall(payableApi.pay);
export const useReversePayment = () => useCall(payableApi.reverse);
export const useImportNfe = () => useCall(payableApi.importNfe);
export const useReviewNfe = () => useCall(payableApi.reviewNfe);
export const useImportNfeEntry = () => useCall(payableApi.importNfeEntry);
export const usePurchase = () => useCall(payableApi.purchase);
export const useAddAttachment = () => useCall(payableApi.addAttachment);
export const useRemoveAttachment = () => useCall(payableApi.removeAttachment, { refreshOnError: true });
export const useCreateSupplier = () => useCall(supplierApi.create);
export const useUpdateSupplier = () => useCall(supplierApi.update);
export const useDeleteSupplier = () => useCall(supplierApi.remove, { refreshOnError: true });

/** The shop's expense categories and bank accounts (issue 34): their screens and the pay dialog. */
export const useBankAccounts = (enabled = true) =>
  useQuery({ ...queryOf(payableApi.bankAccounts, {}), enabled });
export const useCreateCategory = () => useCall(payableApi.createCategory);
export const useUpdateCategory = () => useCall(payableApi.updateCategory);
export const useCreateBankAccount = () => useCall(payableApi.createBankAccount);
export const useUpdateBankAccount = () => useCall(payableApi.updateBankAccount);
