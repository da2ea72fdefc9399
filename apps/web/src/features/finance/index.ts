/** What the finance feature offers the other features (the structure check allows no other way in). */
export { useDre } from './api.ts';
