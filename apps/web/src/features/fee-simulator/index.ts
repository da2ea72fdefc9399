/** What the fee-simulator feature offers the other features (the structure check allows no other way in). */
export { usePdvSurchargeLabel } from './pdvSurcharge.ts';
