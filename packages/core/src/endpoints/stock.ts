import { endpoint } from '../contract.ts';
import { idFilter, listQuerySchema, pageOf } from '../list.ts';
import { clientParams, idParam } from '../params.ts';
import { csvFileSchema } from '../responses.ts';
import { BACKOFFICE, COUNTER, WRITE } from '../routes.ts';
import {
  fractionRatioSchema,
  lowStockProductSchema,
  stockCardSchema,
  stockEntryInputSchema,
  stockExitInputSchema,
  stockFractionateInputSchema,
  stockMovementListQuerySchema,
  stockMovementSchema,
  stockOperationResultSchema,
  stockReservationFiguresSchema,
  stockSettingsInputSchema,
  stockSettingsSchema,
} from '../stock.ts';
import { z } from '../zod.ts';

/** `/…/product/:productId` */
export const stockProductParams = z.object({ productId: idParam('Produto inválido') });

/** A product's stock card: a page of its movements, of one variant when given. */
export const stockCardQuerySchema = listQuerySchema
  .pick({ page: true, pageSize: true })
  .extend({ variantId: idFilter('Variação inválida') });

/** The low-stock list: a page, searched by name. */
export const lowStockQuerySchema = listQuerySchema.pick({ page: true, pageSize: true, q: true });

/** The remembered fractionation ratios of a source or target product. */
export const fractionRatioQuerySchema = z.object({
  sourceProductId: idFilter('Produto inválido'),
  targetProductId: idFilter('Produto inválido'),
});

/**
 * /v1/stock-movement, /v1/stock-reservation, /v1/stock-setting (issue 6). Reading: the back office
 * (BACKOFFICE); moving stock: WRITE.stock (1, 2, 6); the negative-stock setting: WRITE.settings
 * (1, 2). Every write answers 422 while the client's stockManagement is off.
 */
export const stockApi = {
  entry: endpoint({
    method: 'POST',
    path: '/stock-movement/entry',
    resource: 'stock',
    access: WRITE.stock,
    summary: 'Stock entry of one or more products (quantity and unit cost; updates the average cost)',
    body: stockEntryInputSchema,
    response: { 201: stockOperationResultSchema },
    changes: ['stock'],
  }),
  exit: endpoint({
    method: 'POST',
    path: '/stock-movement/exit',
    resource: 'stock',
    access: WRITE.stock,
    summary: 'Stock exit with a reason; 409 when a level would go negative (unless allowed)',
    body: stockExitInputSchema,
    response: { 201: stockOperationResultSchema },
    changes: ['stock'],
  }),
  fractionate: endpoint({
    method: 'POST',
    path: '/stock-movement/fractionate',
    resource: 'stock',
    access: WRITE.stock,
    summary: 'N units of a source product out, M units of a target in, one transaction; remembers N:M',
    body: stockFractionateInputSchema,
    response: { 201: stockOperationResultSchema },
    changes: ['stock'],
  }),
  movements: endpoint({
    method: 'GET',
    path: '/stock-movement/client/:clientId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: 'Movement history: filters productId, variantId, type (comma list), userId, from, to (dates)',
    params: clientParams,
    query: stockMovementListQuerySchema,
    response: { 200: pageOf(stockMovementSchema) },
  }),
  exportMovements: endpoint({
    method: 'GET',
    path: '/stock-movement/client/:clientId/export',
    resource: 'stock',
    access: BACKOFFICE,
    summary: 'CSV of the filtered history (semicolon separated, decimal comma, UTF-8 with BOM)',
    params: clientParams,
    query: stockMovementListQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  card: endpoint({
    method: 'GET',
    path: '/stock-movement/product/:productId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: "A product's stock card: its movements, newest first, with the level after each",
    params: stockProductParams,
    query: stockCardQuerySchema,
    response: { 200: stockCardSchema },
  }),
  reservation: endpoint({
    method: 'GET',
    path: '/stock-reservation/product/:productId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: "A product's level, the units budgets reserve while valid, and what is available to sell",
    params: stockProductParams,
    response: { 200: stockReservationFiguresSchema },
  }),
  lowStock: endpoint({
    method: 'GET',
    path: '/stock-movement/low-stock/client/:clientId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: 'Active products at or below their minimum stock',
    params: clientParams,
    query: lowStockQuerySchema,
    response: { 200: pageOf(lowStockProductSchema) },
  }),
  fractionRatios: endpoint({
    method: 'GET',
    path: '/stock-movement/fraction-ratio/client/:clientId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: 'Remembered fractionation ratios (last N:M per source/target pair), newest first',
    params: clientParams,
    query: fractionRatioQuerySchema,
    response: { 200: z.array(fractionRatioSchema) },
  }),
  saleSettings: endpoint({
    method: 'GET',
    path: '/stock-setting/sale',
    resource: 'stock',
    access: COUNTER,
    summary:
      'The stock rule a sale follows (issue 21): the PDV keeps it to check an offline sale as the server would',
    response: { 200: stockSettingsSchema },
  }),
  settings: endpoint({
    method: 'GET',
    path: '/stock-setting/client/:clientId',
    resource: 'stock',
    access: BACKOFFICE,
    summary: 'stockManagement and allowNegativeStock of the client',
    params: clientParams,
    response: { 200: stockSettingsSchema },
  }),
  updateSettings: endpoint({
    method: 'PUT',
    path: '/stock-setting/client/:clientId',
    resource: 'stock',
    access: WRITE.settings,
    summary: 'Allow or refuse negative stock (exits and sales)',
    params: clientParams,
    body: stockSettingsInputSchema,
    response: { 200: stockSettingsSchema },
    changes: ['stock'],
  }),
} as const;
