/** What the fee-simulator feature offers the other features (the structure check allows no other way in). */

export { useEnabledMealVouchers } from './api.ts';
export { offeredMethods } from './mealVoucherMethods.ts';
export { usePdvSurchargeLabel } from './pdvSurcharge.ts';
