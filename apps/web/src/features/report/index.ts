/** What the report feature offers the other features (the structure check allows no other way in). */
export { useSalesReport } from './api.ts';
/** The export bar (a format per button, the bytes received) and the previous-period cells, for the finance pages. */
export { Change, PREVIOUS_HEAD, PreviousCell } from './Compared.tsx';
export { ExportBar } from './ExportBar.tsx';
