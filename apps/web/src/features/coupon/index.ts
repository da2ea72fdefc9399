/** What the coupon feature offers the other features (the structure check allows no other way in). */
export { useCoupons } from './api.ts';
