/** What the settings feature offers the other features (the structure check allows no other way in). */

export { useMyDiscountLimit, useReceiptShop } from './api.ts';
export { BillingBanner } from './billing/BillingBanner.tsx';
export { PrintProblems } from './printer/PrintProblems.tsx';
export { useStationConfig } from './printer/stationStore.ts';
export { ClosedShopWarning, ShopStatusChip } from './ShopStatus.tsx';
