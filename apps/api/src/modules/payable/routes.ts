import { formatDateBr } from '@balcao/core/date';
import { payableApi, supplierApi } from '@balcao/core/endpoints/payable';
import { PAYABLE_STATUS_LABELS, type Payable } from '@balcao/core/payable';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Papa from 'papaparse';
import type { AppContext } from '../../context.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopClock } from '../../lib/shopToday.ts';
import { assertCan, sessionOf } from '../../plugins/auth.ts';
import type { RegisterSales } from '../cash-register/service.ts';
import type { Cell, Column } from '../report/tables.ts';
import { XLSX_CONTENT_TYPE, xlsxStream } from '../report/xlsx.ts';
import { storageFor } from '../storage/storage.ts';
import { addAttachment, attachmentFile, contentDisposition, removeAttachment } from './attachments.ts';
import { createBankAccount, listBankAccounts, updateBankAccount } from './bankAccounts.ts';
import { payableDueFigures } from './dueFigures.ts';
import { importNfeEntry, reviewNfe } from './nfeEntry.ts';
import { importNfe, registerPurchase } from './purchase.ts';
import {
  createCategory,
  createPayables,
  createSupplier,
  deletePayable,
  deleteSupplier,
  eachPayable,
  findPayable,
  findSupplier,
  listCategories,
  listPayables,
  listSuppliers,
  payPayable,
  reversePayment,
  updateCategory,
  updatePayable,
  updateSupplier,
} from './service.ts';

const cents = (value: number) => (value / 100).toFixed(2).replace('.', ',');

function csvLine(p: Payable): string[] {
  return [
    p.dueDate,
    p.description + (p.series ? ` (${p.series.index}/${p.series.count})` : ''),
    p.supplier?.name ?? '',
    p.category.name,
    p.competenceMonth,
    p.documentNumber ?? '',
    cents(p.amountCents),
    cents(p.paidCents),
    cents(p.openCents),
    statusLabel(p),
    p.lastPaidOn ?? '',
    p.paidFrom ?? '',
  ];
}

const statusLabel = (p: Payable) =>
  p.overdue ? PAYABLE_STATUS_LABELS.overdue : PAYABLE_STATUS_LABELS[p.status];

/** The XLSX's columns: the CSV's, with money as numbers and dates as dates (the report module's writer). */
const XLSX_COLUMNS: Column[] = [
  { label: 'Vencimento', kind: 'date' },
  { label: 'Descrição', kind: 'text' },
  { label: 'Fornecedor', kind: 'text' },
  { label: 'Categoria', kind: 'text' },
  { label: 'Competência', kind: 'text' },
  { label: 'Documento', kind: 'text' },
  { label: 'Valor', kind: 'money' },
  { label: 'Pago', kind: 'money' },
  { label: 'Em aberto', kind: 'money' },
  { label: 'Situação', kind: 'text' },
  { label: 'Pago em', kind: 'date' },
  { label: 'Pago por', kind: 'text' },
];

function xlsxCells(p: Payable): Cell[] {
  return [
    formatDateBr(p.dueDate),
    p.description + (p.series ? ` (${p.series.index}/${p.series.count})` : ''),
    p.supplier?.name ?? null,
    p.category.name,
    p.competenceMonth,
    p.documentNumber,
    p.amountCents,
    p.paidCents,
    p.openCents,
    statusLabel(p),
    p.lastPaidOn ? formatDateBr(p.lastPaidOn) : null,
    p.paidFrom,
  ];
}

/**
 * The rows of the XLSX, the first page read before answering: a bad filter (a sort, a text the database
 * refuses) is the list's 400, never a 200 cut short (as sendCsvStream does for the CSV).
 */
async function xlsxRows(payables: AsyncGenerator<Payable>): Promise<AsyncGenerator<Cell[]>> {
  const first = await payables.next();
  return (async function* () {
    if (first.done) return;
    yield xlsxCells(first.value);
    for await (const p of payables) yield xlsxCells(p);
  })();
}

/**
 * Contas a pagar and suppliers (issue 34): the handlers of `payableApi`/`supplierApi`. Paying from the
 * register needs the register's sale figures, handed over at wiring (modules/index.ts).
 */
export function payableRoutes(ctx: AppContext, sales: RegisterSales): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);
    const writer = (request: Parameters<typeof sessionOf>[0]) => assertCan(request, WRITE.finance);

    route(app, payableApi.categories, (request) => listCategories(db, sessionOf(request)));
    route(app, payableApi.createCategory, (request) => createCategory(db, writer(request), request.body));
    route(app, payableApi.updateCategory, (request) =>
      updateCategory(db, writer(request), request.params.id, request.body),
    );
    route(app, payableApi.bankAccounts, (request) => listBankAccounts(db, sessionOf(request)));
    route(app, payableApi.createBankAccount, (request) =>
      createBankAccount(db, writer(request), request.body),
    );
    route(app, payableApi.updateBankAccount, (request) =>
      updateBankAccount(db, writer(request), request.params.id, request.body),
    );

    route(app, payableApi.list, (request) => listPayables(db, sessionOf(request), request.query));

    route(app, payableApi.due, (request) => payableDueFigures(db, sessionOf(request)));
    route(app, payableApi.export, async (request, reply) => {
      const actor = sessionOf(request);
      const { today } = await shopClock(db, actor.clientId);
      return sendCsvStream(reply, 'contas-a-pagar', {
        header: `${Papa.unparse(
          [
            [
              'Vencimento',
              'Descrição',
              'Fornecedor',
              'Categoria',
              'Competência',
              'Documento',
              'Valor',
              'Pago',
              'Em aberto',
              'Situação',
              'Pago em',
              'Pago por',
            ],
          ],
          { delimiter: ';' },
        )}\r\n`,
        rows: eachPayable(db, actor, request.query),
        lines: (batch) => (batch.length ? `${Papa.unparse(batch.map(csvLine), { delimiter: ';' })}\r\n` : ''),
        today,
      });
    });
    route(app, payableApi.exportXlsx, async (request, reply) => {
      const actor = sessionOf(request);
      const { today } = await shopClock(db, actor.clientId);
      const rows = await xlsxRows(eachPayable(db, actor, request.query));
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="contas-a-pagar-${today}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream('Contas a pagar', XLSX_COLUMNS, rows));
    });

    route(app, payableApi.get, (request) => findPayable(db, sessionOf(request), request.params.id));

    route(app, payableApi.create, async (request) => {
      const result = await createPayables(db, writer(request), request.body);
      ctx.changed(sessionOf(request).clientId, 'payable');
      return result;
    });

    route(app, payableApi.update, async (request) => {
      const result = await updatePayable(db, writer(request), request.params.id, request.body);
      ctx.changed(sessionOf(request).clientId, 'payable', request.params.id);
      return result;
    });

    route(app, payableApi.remove, async (request) => {
      const result = await deletePayable(
        db,
        writer(request),
        request.params.id,
        request.query.scope,
        storage,
      );
      ctx.changed(sessionOf(request).clientId, 'payable');
      return result;
    });

    route(app, payableApi.pay, async (request) => {
      const { payable, registerId } = await payPayable(
        db,
        sales,
        writer(request),
        request.params.id,
        request.body,
        request.idempotencyKey ?? undefined,
      );
      ctx.changed(sessionOf(request).clientId, 'payable', payable.id);
      if (registerId) ctx.changed(sessionOf(request).clientId, 'cash-register', registerId);
      return payable;
    });

    route(app, payableApi.reverse, async (request) => {
      const { payable, registerId } = await reversePayment(
        db,
        writer(request),
        request.params.id,
        request.params.paymentId,
      );
      ctx.changed(sessionOf(request).clientId, 'payable', payable.id);
      if (registerId) ctx.changed(sessionOf(request).clientId, 'cash-register', registerId);
      return payable;
    });

    route(app, supplierApi.list, (request) => listSuppliers(db, sessionOf(request), request.query));
    route(app, supplierApi.get, (request) => findSupplier(db, sessionOf(request), request.params.id));
    route(app, supplierApi.create, (request) => createSupplier(db, writer(request), request.body));
    route(app, supplierApi.update, (request) =>
      updateSupplier(db, writer(request), request.params.id, request.body),
    );
    route(app, payableApi.purchase, async (request) => {
      const actor = writer(request);
      assertCan(request, WRITE.stock);
      const result = await registerPurchase(db, ctx.notify, actor, request.body);
      ctx.changed(actor.clientId, 'payable');
      ctx.changed(actor.clientId, 'stock');
      ctx.changed(actor.clientId, 'product');
      return result;
    });
    route(app, payableApi.importNfe, async (request) => {
      const actor = writer(request);
      const result = await importNfe(db, actor, request.upload.toString('utf8'), request.query.categoryId);
      ctx.changed(actor.clientId, 'payable');
      ctx.changed(actor.clientId, 'supplier');
      return result;
    });
    route(app, payableApi.reviewNfe, (request) =>
      reviewNfe(db, writer(request), request.upload.toString('utf8')),
    );
    route(app, payableApi.importNfeEntry, async (request) => {
      const actor = writer(request);
      assertCan(request, WRITE.stock);
      const result = await importNfeEntry(db, ctx.notify, actor, request.body);
      ctx.changed(actor.clientId, 'payable');
      ctx.changed(actor.clientId, 'supplier');
      ctx.changed(actor.clientId, 'stock');
      ctx.changed(actor.clientId, 'product');
      return result;
    });
    route(app, payableApi.addAttachment, async (request) => {
      const actor = writer(request);
      const attachment = await addAttachment(db, storage, actor, request.params.id, {
        data: request.upload,
        name: request.uploadName,
      });
      ctx.changed(actor.clientId, 'payable', request.params.id);
      return attachment;
    });
    route(app, payableApi.attachmentFile, async (request, reply) => {
      const { file, name, contentType } = await attachmentFile(
        db,
        storage,
        sessionOf(request),
        request.params.id,
        request.params.attachmentId,
      );
      return reply
        .header('content-type', contentType)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    });
    route(app, payableApi.removeAttachment, async (request) => {
      const actor = writer(request);
      const result = await removeAttachment(
        db,
        storage,
        actor,
        request.params.id,
        request.params.attachmentId,
      );
      ctx.changed(actor.clientId, 'payable', request.params.id);
      return result;
    });

    route(app, supplierApi.remove, (request) => deleteSupplier(db, writer(request), request.params.id));
  };
}
