import { CASH_FLOW_METHOD_LABELS, CASH_FLOW_METHODS } from '@balcao/core/cashFlowMethods';
import { formatDateBr } from '@balcao/core/date';
import { financeApi } from '@balcao/core/endpoints/finance';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Papa from 'papaparse';
import type { AppContext } from '../../context.ts';
import { clients } from '../../db/schema.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { xlsxStream } from '../report/xlsx.ts';
import { cashFlowPdf, drePdf } from './pdf.ts';
import { cashFlow, dayClose, dre, dreEntries, dreLine, eachDreEntry } from './service.ts';
import {
  cashFlowMethodTable,
  cashFlowTable,
  cashFlowXlsxTable,
  DRE_ENTRY_COLUMNS,
  dreEntryRows,
  dreTable,
} from './tables.ts';

const cents = (value: number) => (value / 100).toFixed(2).replace('.', ',');
const csv = (rows: (string | number)[][]) => `${Papa.unparse(rows, { delimiter: ';' })}\r\n`;

async function* each<T>(items: T[]) {
  yield* items;
}

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} de ${month.slice(0, 4)}`;

/** Cash flow and DRE (issue 34): the handlers of `financeApi`. */
export function financeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const shopName = async (clientId: number) => {
      const [client] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, clientId));
      return client?.name ?? '';
    };

    route(app, financeApi.cashFlow, (request) => cashFlow(db, sessionOf(request), request.query));

    route(app, financeApi.cashFlowExport, async (request, reply) => {
      const actor = sessionOf(request);
      const flow = await cashFlow(db, actor, request.query);
      return sendCsvStream(reply, 'fluxo-de-caixa', {
        header: csv([
          [
            'Período',
            'Vendas recebidas',
            'Crediário recebido',
            'Contas pagas',
            'A receber (previsto)',
            'A pagar (previsto)',
            'Saldo realizado',
            'Saldo acumulado',
            ...CASH_FLOW_METHODS.map((m) => `Vendas recebidas: ${CASH_FLOW_METHOD_LABELS[m]}`),
          ],
        ]),
        rows: each(flow.rows),
        lines: (batch) =>
          batch.length
            ? csv(
                batch.map((r) => [
                  formatDateBr(r.period),
                  cents(r.salesInCents),
                  cents(r.receivablesInCents),
                  cents(r.payablesOutCents),
                  cents(r.projectedInCents),
                  cents(r.projectedOutCents),
                  cents(r.netCents),
                  cents(r.balanceCents),
                  ...CASH_FLOW_METHODS.map((m) => cents(r.salesByMethodCents[m])),
                ]),
              )
            : '',
        today: flow.today,
        fileName: `fluxo-de-caixa-${flow.from}-${flow.to}.csv`,
      });
    });

    route(app, financeApi.cashFlowXlsx, async (request, reply) => {
      const flow = await cashFlow(db, sessionOf(request), request.query);
      const table = cashFlowXlsxTable(flow);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="fluxo-de-caixa-${flow.from}-${flow.to}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream('Fluxo de caixa', table.columns, each(table.rows)));
    });

    route(app, financeApi.cashFlowPdf, async (request, reply) => {
      const actor = sessionOf(request);
      const flow = await cashFlow(db, actor, request.query);
      const pdf = await cashFlowPdf(
        await shopName(actor.clientId),
        flow,
        cashFlowTable(flow),
        cashFlowMethodTable(flow),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="fluxo-de-caixa-${flow.from}-${flow.to}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    });

    route(app, financeApi.dayClose, (request) => dayClose(db, sessionOf(request), request.query.date));

    route(app, financeApi.dre, (request) => dre(db, sessionOf(request), request.query.month));

    route(app, financeApi.dreExport, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dre(db, actor, request.query.month);
      return sendCsvStream(reply, 'dre', {
        header: csv([['Linha', 'Valor']]),
        rows: each(result.lines),
        lines: (batch) => (batch.length ? csv(batch.map((l) => [l.label, cents(l.amountCents)])) : ''),
        today: await shopToday(db, actor.clientId),
        fileName: `dre-${result.month}.csv`,
      });
    });

    route(app, financeApi.dreEntries, (request) =>
      dreEntries(db, sessionOf(request), request.query.month, request.query.line),
    );

    // The drill-down exported whole (issue 34): every record of the line, not the dialog's first 500.
    route(app, financeApi.dreEntriesCsv, async (request, reply) => {
      const actor = sessionOf(request);
      const { month, line } = request.query;
      const rows = dreEntryRows(eachDreEntry(db, actor, month, line), await dreLine(db, actor, month, line));
      return sendCsvStream(reply, 'dre', {
        header: csv([DRE_ENTRY_COLUMNS.map((c) => c.label)]),
        rows,
        lines: (batch) =>
          batch.length
            ? csv(
                batch.map(([date, kind, text, amount]) => [
                  date ?? '',
                  kind ?? '',
                  text ?? '',
                  cents(Number(amount)),
                ]),
              )
            : '',
        today: await shopToday(db, actor.clientId),
        fileName: `dre-${month}-${line.replace(':', '-')}.csv`,
      });
    });

    route(app, financeApi.dreEntriesXlsx, async (request, reply) => {
      const actor = sessionOf(request);
      const { month, line } = request.query;
      const total = await dreLine(db, actor, month, line);
      const rows = dreEntryRows(eachDreEntry(db, actor, month, line), total);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="dre-${month}-${line.replace(':', '-')}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(`${total.label} ${month}`, DRE_ENTRY_COLUMNS, rows));
    });

    route(app, financeApi.dreXlsx, async (request, reply) => {
      const result = await dre(db, sessionOf(request), request.query.month);
      const table = dreTable(result);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="dre-${result.month}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(`DRE ${result.month}`, table.columns, each(table.rows)));
    });

    route(app, financeApi.drePdf, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dre(db, actor, request.query.month);
      const pdf = await drePdf(await shopName(actor.clientId), result, monthLabel(result.month));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="dre-${result.month}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    });
  };
}
