import { endpoint } from '../contract.ts';
import { reportExportQuerySchema, reportQuerySchema, salesReportSchema } from '../report.ts';
import { binaryFileSchema, csvFileSchema } from '../responses.ts';
import { FINANCE } from '../routes.ts';
import {
  stockTurnoverExportQuerySchema,
  stockTurnoverQuerySchema,
  stockTurnoverSchema,
} from '../stockTurnover.ts';

/**
 * /v1/report (issue 34): the sales reports, read by FINANCE (Administrador, Gerente, Financeiro). The
 * resource is 'finance': a sale or a payable moves these figures as it moves the DRE's.
 */
export const reportApi = {
  sales: endpoint({
    method: 'GET',
    path: '/report/sales',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary:
      'Sales of a period net of cancels and returns: by period, payment method, seller, origin, product (ABC curve), category, weekday x hour; with the previous period',
    query: reportQuerySchema,
    response: { 200: salesReportSchema },
  }),
  salesCsv: endpoint({
    method: 'GET',
    path: '/report/sales/csv',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary: "One of the sales report's tables, whole, or every sale line of the period, as a streamed CSV",
    query: reportExportQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  salesXlsx: endpoint({
    method: 'GET',
    path: '/report/sales/xlsx',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary:
      "One of the sales report's tables, whole, or every sale line of the period, as an XLSX workbook streamed as it is written",
    query: reportExportQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  salesPdf: endpoint({
    method: 'GET',
    path: '/report/sales/pdf',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary: 'The sales report of a period as an A4 PDF (every table whole; generated now, never stored)',
    query: reportQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  stockTurnover: endpoint({
    method: 'GET',
    path: '/report/stock-turnover',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary:
      'Stock turnover (CMV / average stock value) and days of stock (closing stock / daily average sold) of a period, per product and per category',
    query: stockTurnoverQuerySchema,
    response: { 200: stockTurnoverSchema },
  }),
  stockTurnoverCsv: endpoint({
    method: 'GET',
    path: '/report/stock-turnover/csv',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary: 'The stock turnover per product or per category, whole, as a streamed CSV',
    query: stockTurnoverExportQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  stockTurnoverXlsx: endpoint({
    method: 'GET',
    path: '/report/stock-turnover/xlsx',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary: 'The stock turnover per product or per category, whole, as an XLSX workbook',
    query: stockTurnoverExportQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  stockTurnoverPdf: endpoint({
    method: 'GET',
    path: '/report/stock-turnover/pdf',
    resource: 'finance',
    tag: 'report',
    access: FINANCE,
    summary:
      'The stock turnover of a period as an A4 PDF: the totals against the previous period, every category and product whole',
    query: stockTurnoverQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
} as const;
