/** What the payable feature offers the other features (the structure check allows no other way in). */
export { usePayableDue, usePayables } from './api.ts';
export { PayableDueAlerts, payableDueCount } from './PayableDueAlerts.tsx';
