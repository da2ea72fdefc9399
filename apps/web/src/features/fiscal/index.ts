/** What the fiscal feature offers the other features (issue 32): a sale's NFC-e on its detail. */
export { SaleFiscalNote } from './SaleFiscalNote.tsx';
