import { endpoint } from '../contract.ts';
import { idParams } from '../params.ts';
import { binaryFileSchema } from '../responses.ts';
import { NOT_MKT, WRITE } from '../routes.ts';
import {
  tableCallInputSchema,
  tableMenuSchema,
  tableOrderInputSchema,
  tableOrderSchema,
  tableQrInputSchema,
  tableQrPdfQuerySchema,
  tableQrSchema,
  tableTokenParams,
} from '../tableMenu.ts';
import { z } from '../zod.ts';
import { tableMenuRouteParts } from './tableMenuRoutes.ts';

/**
 * The QR-code menu at the table (issue 35). /v1/public/table/{token}: the customer's page (no login,
 * nothing of the back office: the token names one table of one shop). The staff's side lives with the
 * comandas: the table's QR (WRITE.settings), the orders waiting for approval (NOT_MKT, as the board).
 */
export const tableMenuApi = {
  qr: endpoint({
    method: 'POST',
    path: '/comanda/table-qr',
    resource: 'comanda',
    access: WRITE.settings,
    summary: "A table's QR code link (a new one: the table's previous QR stops working)",
    body: tableQrInputSchema,
    response: { 200: tableQrSchema },
  }),
  qrPdf: endpoint({
    method: 'GET',
    path: '/comanda/table-qr/pdf',
    resource: 'comanda',
    access: NOT_MKT,
    summary:
      "The tables' QR codes to print (tables=1-10,12): one card per table with its number and QR; the same ones print again; a table without a live QR gets one when the user may issue QRs (WRITE.settings), else 403",
    query: tableQrPdfQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  orders: endpoint({
    method: 'GET',
    path: '/comanda/table-orders',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'The table orders waiting for approval, oldest first',
    response: { 200: z.array(tableOrderSchema) },
  }),
  approve: endpoint({
    method: 'POST',
    path: '/comanda/table-order/:id/approve',
    resource: 'comanda',
    access: NOT_MKT,
    summary: "Approve a table order: its lines go to the table's open tab (opened if none) and to production",
    params: idParams,
    response: { 200: tableOrderSchema },
    changes: ['comanda', 'print-job'],
  }),
  reject: endpoint({
    method: 'POST',
    path: '/comanda/table-order/:id/reject',
    resource: 'comanda',
    access: NOT_MKT,
    summary: 'Refuse a table order',
    params: idParams,
    response: { 200: tableOrderSchema },
    changes: ['comanda'],
  }),
  menu: endpoint({
    ...tableMenuRouteParts.menu,
    summary: "The table's menu: the shop's active products in stock, and whether it takes orders now",
    params: tableTokenParams,
    response: { 200: tableMenuSchema },
  }),
  order: endpoint({
    ...tableMenuRouteParts.order,
    summary:
      "The customer's order (waits for a waiter's approval); the same Idempotency-Key answers it again",
    params: tableTokenParams,
    body: tableOrderInputSchema,
    response: { 201: tableOrderSchema, 200: tableOrderSchema },
  }),
  call: endpoint({
    ...tableMenuRouteParts.call,
    summary: '"Chamar garçom" or "Pedir a conta": the waiters are notified (bell)',
    params: tableTokenParams,
    body: tableCallInputSchema,
    response: { 200: z.object({ ok: z.boolean() }) },
  }),
} as const;
