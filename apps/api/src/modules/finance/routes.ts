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
import { type PdfTable, tablesPdf } from '../report/pdf.ts';
import { cellText, csvLines, type Table, textCell } from '../report/tables.ts';
import { xlsxStream } from '../report/xlsx.ts';
import { cashFlowPdf } from './pdf.ts';
import { cashFlow, dayClose, dreCompared, dreEntries, dreLine, eachDreEntry } from './service.ts';
import {
  cashFlowMethodTable,
  cashFlowTable,
  cashFlowXlsxTable,
  DRE_ENTRY_COLUMNS,
  dayCloseTable,
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

/** A typed table as the PDF draws it: every cell as people read it. */
function pdfTable(title: string, table: Table, empty?: string): PdfTable {
  return {
    title,
    head: table.columns.map((c) => c.label),
    rows: table.rows.map((cells) => cells.map((c, i) => cellText(c, table.columns[i].kind))),
    empty,
  };
}
/** The close's kind and description in one left column on paper ("Conta paga: Aluguel (Pix)"), then the value. */
function closePdfTable(table: Table): Table {
  return {
    columns: [{ label: 'Lançamento', kind: 'text' }, table.columns[2]],
    rows: table.rows.map(([kind, text, value]) => [[kind, text].filter(Boolean).join(': '), value]),
  };
}
const tableHeader = (table: Pick<Table, 'columns'>) =>
  `${table.columns.map((c) => textCell(c.label)).join(';')}\r\n`;

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

    // The day's close exported (issue 34: every report as CSV, XLSX and PDF): one table, sales then bills.
    route(app, financeApi.dayCloseCsv, async (request, reply) => {
      const actor = sessionOf(request);
      const table = dayCloseTable(await dayClose(db, actor, request.query.date));
      return sendCsvStream(reply, 'fechamento', {
        header: tableHeader(table),
        rows: each(table.rows),
        lines: (batch) => csvLines(table.columns, batch),
        today: await shopToday(db, actor.clientId),
        fileName: `fechamento-${request.query.date}.csv`,
      });
    });
    route(app, financeApi.dayCloseXlsx, async (request, reply) => {
      const { date } = request.query;
      const table = dayCloseTable(await dayClose(db, sessionOf(request), date));
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="fechamento-${date}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(`Fechamento ${date}`, table.columns, each(table.rows)));
    });
    route(app, financeApi.dayClosePdf, async (request, reply) => {
      const actor = sessionOf(request);
      const { date } = request.query;
      const doc = tablesPdf({
        shopName: await shopName(actor.clientId),
        title: `Fechamento do dia ${formatDateBr(date)}`,
        note: 'Vendas por forma de pagamento, contas pagas no dia e o que sobra.',
        tables: [
          pdfTable('Fechamento do dia', closePdfTable(dayCloseTable(await dayClose(db, actor, date)))),
        ],
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="fechamento-${date}.pdf"`)
        .header('cache-control', 'no-store')
        .send(doc);
    });

    route(app, financeApi.dre, (request) => dreCompared(db, sessionOf(request), request.query.month));

    // The DRE's files carry the month before beside each line (value and change), as the page shows it.
    route(app, financeApi.dreExport, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dreCompared(db, actor, request.query.month);
      const table = dreTable(result);
      return sendCsvStream(reply, 'dre', {
        header: tableHeader(table),
        rows: each(table.rows),
        lines: (batch) => csvLines(table.columns, batch),
        today: await shopToday(db, actor.clientId),
        fileName: `dre-${result.month}.csv`,
      });
    });

    route(app, financeApi.dreEntriesPdf, async (request, reply) => {
      const actor = sessionOf(request);
      const { month, line } = request.query;
      const total = await dreLine(db, actor, month, line);
      const cells = dreEntryRows(eachDreEntry(db, actor, month, line), total);
      // On paper the record's text leads (the wide first column), then its date, kind and value.
      const order = [2, 0, 1, 3];
      async function* rows() {
        for await (const row of cells) yield order.map((i) => cellText(row[i], DRE_ENTRY_COLUMNS[i].kind));
      }
      const doc = tablesPdf({
        shopName: await shopName(actor.clientId),
        title: `DRE de ${monthLabel(month)}: ${total.label}`,
        note: 'Todos os lançamentos da linha, com o total no fim.',
        tables: [
          {
            title: total.label,
            head: order.map((i) => DRE_ENTRY_COLUMNS[i].label),
            rows: rows(),
            totalLast: true,
          },
        ],
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="dre-${month}-${line.replace(':', '-')}.pdf"`)
        .header('cache-control', 'no-store')
        .send(doc);
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
      const result = await dreCompared(db, sessionOf(request), request.query.month);
      const table = dreTable(result);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="dre-${result.month}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(`DRE ${result.month}`, table.columns, each(table.rows)));
    });

    route(app, financeApi.drePdf, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dreCompared(db, actor, request.query.month);
      const doc = tablesPdf({
        shopName: await shopName(actor.clientId),
        title: `DRE - Demonstração do resultado de ${monthLabel(result.month)}`,
        note: `${result.salesCount} vendas no mês (${result.previous.salesCount} em ${monthLabel(result.previous.month)}). Compras de mercadorias ficam fora do resultado (estoque).`,
        tables: [pdfTable('DRE', dreTable(result))],
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="dre-${result.month}.pdf"`)
        .header('cache-control', 'no-store')
        .send(doc);
    });
  };
}
