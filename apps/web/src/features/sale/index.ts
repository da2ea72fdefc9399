/** What the sale feature offers the other features (the structure check allows no other way in). */

export {
  fetchByBarcode,
  fetchProductDetail,
  searchCustomers,
  useCheckout,
  useCustomerDetail,
  useSellers,
  useStoreCredit,
} from './api.ts';
export { PixQr } from './PixQr.tsx';
export { usePeriodList } from './periodList.ts';
export { Receipt } from './Receipt.tsx';
