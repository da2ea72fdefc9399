import { endpoint } from '../contract.ts';
import { idParam, idParams } from '../params.ts';
import { csvFileSchema } from '../responses.ts';
import { BACKOFFICE, COUNTER, WRITE } from '../routes.ts';
import {
  offlineSaleInputSchema,
  saleCancelSchema,
  saleInputSchema,
  saleSchema,
  simpleSaleInputSchema,
} from '../sale.ts';
import { saleListQuerySchema, saleListResultSchema } from '../saleList.ts';
import { saleExchangeInputSchema, saleReturnInputSchema, saleReturnsSchema } from '../saleReturn.ts';
import { z } from '../zod.ts';

const id = idParam();

/** `/sale/client/:clientId` (the sale list's own message: "Identificador inválido"). */
const saleClientParams = z.object({ clientId: id });

/**
 * /v1/sale (issue 7): checkout, quick sale, offline sync, list with totals and CSV, detail, cancel.
 * A sale-shaped write answers 201, or 200 with `Idempotent-Replayed` for a retried key.
 */
export const saleApi = {
  checkout: endpoint({
    method: 'POST',
    path: '/sale',
    resource: 'sale',
    access: WRITE.sales,
    summary:
      'PDV checkout: sale, items, payments, receivables, coupon use and stock in one transaction (Idempotency-Key header honoured)',
    body: saleInputSchema,
    response: { 200: saleSchema, 201: saleSchema },
    idempotencyKey: 'optional',
    changes: ['sale', 'coupon', 'delivery', 'receivable'],
  }),
  quick: endpoint({
    method: 'POST',
    path: '/sale/simple',
    resource: 'sale',
    access: WRITE.sales,
    summary: 'Quick sale: a description and a value, no catalog items',
    body: simpleSaleInputSchema,
    response: { 200: saleSchema, 201: saleSchema },
    idempotencyKey: 'optional',
    changes: ['sale'],
  }),
  offline: endpoint({
    method: 'POST',
    path: '/sale/offline',
    resource: 'sale',
    access: WRITE.sales,
    summary:
      'Offline sync (issue 21): a sale made at the PDV without a connection, at its original time, accepted as made and flagged on conflicts; clientSaleId is its Idempotency-Key',
    body: offlineSaleInputSchema,
    response: { 200: saleSchema, 201: saleSchema },
    changes: ['sale', 'coupon', 'delivery', 'receivable'],
  }),
  list: endpoint({
    method: 'GET',
    path: '/sale/client/:clientId',
    resource: 'sale',
    access: BACKOFFICE,
    summary: 'Sales: period, status, payment method, seller, customer filters; totals of the filtered set',
    params: saleClientParams,
    query: saleListQuerySchema,
    response: { 200: saleListResultSchema },
  }),
  export: endpoint({
    method: 'GET',
    path: '/sale/client/:clientId/export',
    resource: 'sale',
    access: BACKOFFICE,
    summary: 'CSV of the filtered sales (";" separated, decimal comma, UTF-8 with BOM)',
    params: saleClientParams,
    query: saleListQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  get: endpoint({
    method: 'GET',
    path: '/sale/:id',
    resource: 'sale',
    access: BACKOFFICE,
    summary: 'A sale with items, payments and receivables',
    params: idParams,
    response: { 200: saleSchema },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/sale/:id/cancel',
    resource: 'sale',
    access: COUNTER,
    summary:
      'Cancel with a reason (types 1, 2; others with a manager approval): returns stock, frees the coupon use, cancels receivables',
    params: idParams,
    body: saleCancelSchema,
    response: { 200: saleSchema },
    changes: ['sale', 'coupon', 'receivable', 'delivery'],
  }),
  returns: endpoint({
    method: 'GET',
    path: '/sale/:id/returns',
    resource: 'sale',
    access: BACKOFFICE,
    summary: "A sale's returns (issue 30): what went back of each line, the refunds, the window",
    params: idParams,
    response: { 200: saleReturnsSchema },
  }),
  return: endpoint({
    method: 'POST',
    path: '/sale/:id/return',
    resource: 'sale',
    access: COUNTER,
    summary:
      "Return some lines of a sale (issue 30): restock or not, refund by the sale's methods (cash from the open register) or a vale-troca; one transaction, Idempotency-Key required, 409 past what was sold",
    params: idParams,
    body: saleReturnInputSchema,
    response: { 200: saleReturnsSchema, 201: saleReturnsSchema },
    idempotencyKey: 'required',
    changes: ['sale', 'cash-register', 'customer', 'stock'],
  }),
  exchange: endpoint({
    method: 'POST',
    path: '/sale/:id/exchange',
    resource: 'sale',
    access: COUNTER,
    summary:
      'Exchange in one transaction (issue 30): return lines of a sale as vale-troca and record a new sale paid first with it; the difference is paid or stays as vale-troca',
    params: idParams,
    body: saleExchangeInputSchema,
    response: { 200: saleSchema, 201: saleSchema },
    idempotencyKey: 'required',
    changes: ['sale', 'cash-register', 'customer', 'stock', 'coupon', 'receivable', 'delivery'],
  }),
} as const;
