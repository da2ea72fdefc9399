import { endpoint } from '../contract.ts';
import { binaryFileSchema } from '../responses.ts';
import { WRITE } from '../routes.ts';

/**
 * /v1/shop-export (issue 37): the shop's whole data as a ZIP (every table as CSV, the uploaded files,
 * a README of the columns), for the Administrador only. `npm run import-shop -- FILE` reads it back.
 */
export const shopExportApi = {
  download: endpoint({
    method: 'GET',
    path: '/shop-export',
    resource: 'settings',
    tag: 'shop-export',
    access: WRITE.system,
    summary:
      "Every table of the caller's shop as CSV, its uploaded files and a README, as one ZIP streamed with constant memory",
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
} as const;
