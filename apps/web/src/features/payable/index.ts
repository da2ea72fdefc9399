/** What the payable feature offers the other features (the structure check allows no other way in). */
export { useBankAccounts, usePayableDue, usePayables, usePurchase, useSuppliers } from './api.ts';
export { PayableDueAlerts, payableDueCount } from './PayableDueAlerts.tsx';
export { type BillChoice, PurchaseBillFields } from './PurchaseBillFields.tsx';
