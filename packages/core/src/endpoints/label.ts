import { endpoint } from '../contract.ts';
import { labelItemsQuerySchema, labelPrintInputSchema } from '../labels/printerLabels.ts';
import { printJobSchema } from '../printing.ts';
import { binaryFileSchema } from '../responses.ts';
import { BACKOFFICE } from '../routes.ts';

/**
 * Price and barcode labels (issue 36): the chosen products' labels as an A4 sheet PDF for an ordinary
 * printer, or as ZPL/EPL commands for a thermal label printer (sent raw by the print agent, or saved).
 */
export const labelApi = {
  pdf: endpoint({
    method: 'GET',
    path: '/label/pdf',
    resource: 'product',
    access: BACKOFFICE,
    summary: 'Labels of the chosen products (items=12x3,15-7x2) on A4 sheets: name, variant, price, barcode',
    query: labelItemsQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  commands: endpoint({
    method: 'GET',
    path: '/label/commands',
    resource: 'product',
    access: BACKOFFICE,
    summary: 'The same labels as ZPL II or EPL2 commands (language=zpl|epl) for a thermal label printer',
    query: labelItemsQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'text',
  }),
  /**
   * The same commands as a print job of the chosen profile, printed raw by the print agent that
   * prints it (exactly once, like receipts); 409 when no agent prints the profile.
   */
  print: endpoint({
    method: 'POST',
    path: '/label/print',
    resource: 'print-job',
    tag: 'product',
    access: BACKOFFICE,
    summary: 'Send the labels (ZPL or EPL) to a label printer through the print agent of a printer profile',
    body: labelPrintInputSchema,
    response: { 201: printJobSchema },
    changes: ['print-job'],
  }),
} as const;
