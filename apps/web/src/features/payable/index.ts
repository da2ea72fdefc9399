/** What the payable feature offers the other features (the structure check allows no other way in). */
export { usePayables } from './api.ts';
