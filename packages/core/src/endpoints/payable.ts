import { endpoint } from '../contract.ts';
import { listQuerySchema, pageOf } from '../list.ts';
import { idParams } from '../params.ts';
import {
  bankAccountInputSchema,
  bankAccountSchema,
  NFE_XML_UPLOAD,
  nfeEntryCreatedSchema,
  nfeEntryInputSchema,
  nfeImportedSchema,
  nfeImportQuerySchema,
  nfeReviewSchema,
  PAYABLE_ATTACHMENT_UPLOAD,
  payableAttachmentSchema,
  payableCategoryInputSchema,
  payableCategoryItemSchema,
  payableCategoryUpdateSchema,
  payableCreatedSchema,
  payableDueSchema,
  payableInputSchema,
  payableListQuerySchema,
  payableListSchema,
  payableSchema,
  payableScopeQuerySchema,
  payableUpdateSchema,
  payInputSchema,
  purchaseBillSchema,
  supplierInputSchema,
  supplierSchema,
} from '../payable.ts';
import { binaryFileSchema, csvFileSchema, deletedSchema } from '../responses.ts';
import { FINANCE } from '../routes.ts';
import { stockEntryInputSchema } from '../stock.ts';
import { z } from '../zod.ts';

/** The stock entry (as POST /stock-movement/entry takes it) and the bill it creates. */
const purchaseInputSchema = z.object({ entry: stockEntryInputSchema, bill: purchaseBillSchema });
const purchaseCreatedSchema = z.object({ movements: z.number().int(), items: z.array(payableSchema) });

const attachmentParams = z.object({
  id: idParams.shape.id,
  attachmentId: idParams.shape.id,
});

const paymentParams = z.object({
  id: idParams.shape.id,
  paymentId: idParams.shape.id,
});

/**
 * /v1/payable and /v1/supplier (issue 34): contas a pagar, their categories and suppliers. Reading
 * and writing: FINANCE (Administrador, Gerente, Financeiro; ROUTES.md), the writes checked against
 * WRITE.finance in the handlers.
 */
export const payableApi = {
  categories: endpoint({
    method: 'GET',
    path: '/payable/category',
    resource: 'payable',
    access: FINANCE,
    summary:
      "The shop's expense categories with their DRE group, archived ones flagged (the defaults are created on first read)",
    response: { 200: z.array(payableCategoryItemSchema) },
  }),
  createCategory: endpoint({
    method: 'POST',
    path: '/payable/category',
    resource: 'payable',
    access: FINANCE,
    summary: 'A new expense category in a DRE group (a name taken in the shop: 409)',
    body: payableCategoryInputSchema,
    response: { 201: payableCategoryItemSchema },
    changes: ['payable'],
  }),
  updateCategory: endpoint({
    method: 'PUT',
    path: '/payable/category/:id',
    resource: 'payable',
    access: FINANCE,
    summary:
      'Rename a category, move it to another DRE group, archive it (not offered for new bills; its bills keep it) or bring it back',
    params: idParams,
    body: payableCategoryUpdateSchema,
    response: { 200: payableCategoryItemSchema },
    changes: ['payable', 'finance'],
  }),
  bankAccounts: endpoint({
    method: 'GET',
    path: '/payable/bank-account',
    resource: 'payable',
    access: FINANCE,
    summary: "The shop's named bank accounts (inactive ones too, flagged)",
    response: { 200: z.array(bankAccountSchema) },
  }),
  createBankAccount: endpoint({
    method: 'POST',
    path: '/payable/bank-account',
    resource: 'payable',
    access: FINANCE,
    summary: 'A named bank account the shop pays from (a name taken in the shop: 409)',
    body: bankAccountInputSchema,
    response: { 201: bankAccountSchema },
    changes: ['payable'],
  }),
  updateBankAccount: endpoint({
    method: 'PUT',
    path: '/payable/bank-account/:id',
    resource: 'payable',
    access: FINANCE,
    summary: 'Edit a bank account or deactivate it (not offered for new payments; its payments keep it)',
    params: idParams,
    body: bankAccountInputSchema,
    response: { 200: bankAccountSchema },
    changes: ['payable', 'finance'],
  }),
  list: endpoint({
    method: 'GET',
    path: '/payable',
    resource: 'payable',
    access: FINANCE,
    summary:
      'Payables by status, due or paid period, supplier and category, with the totals of all that match',
    query: payableListQuerySchema,
    response: { 200: payableListSchema },
  }),
  due: endpoint({
    method: 'GET',
    path: '/payable/due',
    resource: 'payable',
    access: FINANCE,
    summary:
      "Open payables overdue, due today and in the next 7 days against the shop's date (the bell and the home)",
    response: { 200: payableDueSchema },
  }),
  export: endpoint({
    method: 'GET',
    path: '/payable/export',
    resource: 'payable',
    access: FINANCE,
    summary: 'Every payable the filters match, as CSV (streamed whole, not the page)',
    query: payableListQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  exportXlsx: endpoint({
    method: 'GET',
    path: '/payable/export/xlsx',
    resource: 'payable',
    access: FINANCE,
    summary:
      "Every payable the filters match, as an XLSX workbook (the report module's streaming writer; whole, not the page)",
    query: payableListQuerySchema,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  get: endpoint({
    method: 'GET',
    path: '/payable/:id',
    resource: 'payable',
    access: FINANCE,
    summary: 'One payable with its payments',
    params: idParams,
    response: { 200: payableSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/payable',
    resource: 'payable',
    access: FINANCE,
    summary: 'Create a payable, N instalments of one purchase or a monthly recurrence (one transaction)',
    body: payableInputSchema,
    response: { 201: payableCreatedSchema },
    changes: ['payable'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/payable/:id',
    resource: 'payable',
    access: FINANCE,
    summary: 'Edit a payable: only this one, this and the following, or all of its series (paid ones stay)',
    params: idParams,
    body: payableUpdateSchema,
    response: { 200: payableSchema },
    changes: ['payable'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/payable/:id',
    resource: 'payable',
    access: FINANCE,
    summary: 'Delete an unpaid payable (with ?scope= the following or all unpaid ones of its series)',
    params: idParams,
    query: payableScopeQuerySchema,
    response: { 200: deletedSchema },
    changes: ['payable'],
  }),
  pay: endpoint({
    method: 'POST',
    path: '/payable/:id/pay',
    resource: 'payable',
    access: FINANCE,
    summary:
      "Pay a payable in full or in part; from the register: a withdrawal on the user's open register, in its close",
    params: idParams,
    body: payInputSchema,
    idempotencyKey: 'optional',
    response: { 200: payableSchema },
    changes: ['payable', 'cash-register'],
  }),
  reverse: endpoint({
    method: 'POST',
    path: '/payable/:id/payment/:paymentId/reverse',
    resource: 'payable',
    access: FINANCE,
    summary: "Reverse a payment (the register's withdrawal is removed while that register is open)",
    params: paymentParams,
    response: { 200: payableSchema },
    changes: ['payable', 'cash-register'],
  }),
  purchase: endpoint({
    method: 'POST',
    path: '/payable/purchase',
    resource: 'payable',
    access: FINANCE,
    summary:
      "A stock entry and its bill in one transaction: the products' average cost updated, the entry's value as payables (needs the stock and the finance write rights)",
    body: purchaseInputSchema,
    response: { 201: purchaseCreatedSchema },
    changes: ['payable', 'stock', 'product'],
  }),
  importNfe: endpoint({
    method: 'POST',
    path: '/payable/nfe',
    resource: 'payable',
    access: FINANCE,
    summary:
      'A supplier\'s NF-e XML (nfeProc, multipart field "file") as its bills: the supplier found or created by CNPJ, each duplicata (cobr/dup) a payable due on its date, the total checked; once per NF-e',
    query: nfeImportQuerySchema,
    response: { 201: nfeImportedSchema },
    upload: NFE_XML_UPLOAD,
    changes: ['payable', 'supplier'],
  }),
  reviewNfe: endpoint({
    method: 'POST',
    path: '/payable/nfe/review',
    resource: 'payable',
    access: FINANCE,
    summary:
      "A supplier's NF-e XML (multipart field \"file\") read for the stock entry's review, nothing written: validated against the NF-e 4.00 schema, its recipient checked against the shop's CNPJ, each item matched to a product by barcode (cEAN) or by the supplier's code remembered from an earlier note",
    response: { 200: nfeReviewSchema },
    upload: NFE_XML_UPLOAD,
  }),
  importNfeEntry: endpoint({
    method: 'POST',
    path: '/payable/nfe/entry',
    resource: 'payable',
    access: FINANCE,
    summary:
      "A supplier's NF-e as a stock entry and its bills in one transaction: items to the products the review chose (the supplier's code remembered) or new products, the average costs updated, each duplicata a payable; once per NF-e (needs the stock and the finance write rights)",
    body: nfeEntryInputSchema,
    response: { 201: nfeEntryCreatedSchema },
    changes: ['payable', 'supplier', 'stock', 'product'],
  }),
  addAttachment: endpoint({
    method: 'POST',
    path: '/payable/:id/attachment',
    resource: 'payable',
    access: FINANCE,
    summary:
      'Attach a file to a payable (multipart field "file": PDF, JPEG, PNG or WebP, up to 5 MB; 10 at most)',
    params: idParams,
    response: { 201: payableAttachmentSchema },
    upload: PAYABLE_ATTACHMENT_UPLOAD,
    changes: ['payable'],
  }),
  attachmentFile: endpoint({
    method: 'GET',
    path: '/payable/:id/attachment/:attachmentId',
    resource: 'payable',
    access: FINANCE,
    summary: "Download a payable's attached file (its own type and name)",
    params: attachmentParams,
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  removeAttachment: endpoint({
    method: 'DELETE',
    path: '/payable/:id/attachment/:attachmentId',
    resource: 'payable',
    access: FINANCE,
    summary: "Remove a payable's attached file",
    params: attachmentParams,
    response: { 200: deletedSchema },
    changes: ['payable'],
  }),
} as const;

export const supplierApi = {
  list: endpoint({
    method: 'GET',
    path: '/supplier',
    resource: 'supplier',
    access: FINANCE,
    summary: "The shop's suppliers, by name or CPF/CNPJ",
    query: listQuerySchema,
    response: { 200: pageOf(supplierSchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/supplier/:id',
    resource: 'supplier',
    access: FINANCE,
    summary: 'One supplier',
    params: idParams,
    response: { 200: supplierSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/supplier',
    resource: 'supplier',
    access: FINANCE,
    summary: 'A new supplier (CPF/CNPJ checked, unique in the shop)',
    body: supplierInputSchema,
    response: { 201: supplierSchema },
    changes: ['supplier'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/supplier/:id',
    resource: 'supplier',
    access: FINANCE,
    summary: 'Edit a supplier (updatedAt checked: 409 when stale)',
    params: idParams,
    body: supplierInputSchema,
    response: { 200: supplierSchema },
    changes: ['supplier'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/supplier/:id',
    resource: 'supplier',
    access: FINANCE,
    summary: 'Delete a supplier without payables',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['supplier'],
  }),
} as const;
