/** What the report feature offers the other features (the structure check allows no other way in). */
export { useSalesReport } from './api.ts';
