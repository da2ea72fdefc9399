/** What the shipping feature offers the other features (the structure check allows no other way in). */

export type { PickedFreight } from './api.ts';
export { postDeliveryQuote, takePickedFreight } from './api.ts';
