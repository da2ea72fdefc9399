/** What the delivery feature offers the other features (the structure check allows no other way in). */

export type { OrderAction } from './api.ts';
export { useDriverOrders, useOrderAction, useShiftAction } from './api.ts';
export { addressLine, OrderCard } from './OrderCard.tsx';
export { canChargeOrderPix, OrderPixDialog } from './OrderPixDialog.tsx';
export { playNewOrderSound, useNow, useSoundBlocked } from './sound.ts';
