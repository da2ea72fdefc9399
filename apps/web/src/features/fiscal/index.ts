/** What the fiscal feature offers the other features (issue 32): a sale's NFC-e on its detail, a product's fiscal fields. */

export { useNfceOn } from './api.ts';
export { ProductFiscalSection } from './ProductFiscalSection.tsx';
export { SaleFiscalNote } from './SaleFiscalNote.tsx';
