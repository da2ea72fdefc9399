import { endpoint } from '../contract.ts';
import {
  cashFlowQuerySchema,
  cashFlowSchema,
  dayCloseQuerySchema,
  dayCloseSchema,
  dreQuerySchema,
  dreSchema,
} from '../finance.ts';
import { binaryFileSchema, csvFileSchema } from '../responses.ts';
import { FINANCE } from '../routes.ts';

/** /v1/finance (issue 34): cash flow and DRE, read by FINANCE (Administrador, Gerente, Financeiro). */
export const financeApi = {
  cashFlow: endpoint({
    method: 'GET',
    path: '/finance/cash-flow',
    resource: 'finance',
    access: FINANCE,
    summary:
      'Cash flow by day, week or month: realised (sales on their settlement day net of card fees, crediário received, payables paid) and projected, with the opening balance',
    query: cashFlowQuerySchema,
    response: { 200: cashFlowSchema },
  }),
  cashFlowExport: endpoint({
    method: 'GET',
    path: '/finance/cash-flow/csv',
    resource: 'finance',
    access: FINANCE,
    summary: 'The cash flow of a period as CSV (every row)',
    query: cashFlowQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  cashFlowXlsx: endpoint({
    method: 'GET',
    path: '/finance/cash-flow/xlsx',
    resource: 'finance',
    access: FINANCE,
    summary: 'The cash flow of a period as an XLSX workbook (opening balance, every period, totals)',
    query: cashFlowQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  cashFlowPdf: endpoint({
    method: 'GET',
    path: '/finance/cash-flow/pdf',
    resource: 'finance',
    access: FINANCE,
    summary: 'The cash flow of a period as an A4 PDF (generated now, never stored)',
    query: cashFlowQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
  dayClose: endpoint({
    method: 'GET',
    path: '/finance/day-close',
    resource: 'finance',
    access: FINANCE,
    summary: "A day's close: sales by payment method, the bills paid that day and the net",
    query: dayCloseQuerySchema,
    response: { 200: dayCloseSchema },
  }),
  dre: endpoint({
    method: 'GET',
    path: '/finance/dre',
    resource: 'finance',
    access: FINANCE,
    summary:
      "A competence month's DRE: receita bruta, deductions, receita líquida, CMV, gross margin, expenses by DRE group, result",
    query: dreQuerySchema,
    response: { 200: dreSchema },
  }),
  dreExport: endpoint({
    method: 'GET',
    path: '/finance/dre/csv',
    resource: 'finance',
    access: FINANCE,
    summary: "A month's DRE as CSV",
    query: dreQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  dreXlsx: endpoint({
    method: 'GET',
    path: '/finance/dre/xlsx',
    resource: 'finance',
    access: FINANCE,
    summary: "A month's DRE as an XLSX workbook",
    query: dreQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  drePdf: endpoint({
    method: 'GET',
    path: '/finance/dre/pdf',
    resource: 'finance',
    access: FINANCE,
    summary: "A month's DRE as an A4 PDF (generated now, never stored)",
    query: dreQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'pdf',
  }),
} as const;
