import { Readable } from 'node:stream';
import { reportApi } from '@balcao/core/endpoints/report';
import { REPORT_SECTION_LABELS } from '@balcao/core/report';
import { ORIGIN_SALE_LABELS } from '@balcao/core/sale';
import { STOCK_TURNOVER_SECTION_LABELS, STOCK_TURNOVER_SECTIONS } from '@balcao/core/stockTurnover';
import { formatInZone } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { copyLines } from '../../lib/copyOut.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { sessionOf } from '../../plugins/auth.ts';
import {
  eachSaleLine,
  type ReportPeriod,
  type SaleLineRow,
  saleLinesCsvSql,
  saleLinesSql,
} from '../sale/reportFigures.ts';
import { reportPdf, turnoverPdf } from './pdf.ts';
import { reportPeriod, salesReport, userNames } from './service.ts';
import {
  type Cell,
  type Column,
  cellText,
  csvLines,
  LINE_COLUMNS,
  lineCells,
  reportTable,
  type Table,
  textCell,
} from './tables.ts';
import { stockTurnoverReport, turnoverTable } from './turnover.ts';
import { XLSX_CONTENT_TYPE, xlsxFromRowXml, xlsxRowsSql, xlsxStream } from './xlsx.ts';

async function* each<T>(items: T[]) {
  yield* items;
}

const XLSX_TYPE = XLSX_CONTENT_TYPE;

/**
 * Every sale line of the period as cells, in batches: its seller's name looked up once per batch of new
 * ids, its sale's time formatted once per sale (a sale's lines come together).
 */
async function* lineBatches(db: Executor, period: ReportPeriod): AsyncGenerator<Cell[][]> {
  const names = new Map<number, string>();
  let lastAt = '';
  let lastText = '';
  let batch: SaleLineRow[] = [];
  async function cells(lines: SaleLineRow[]) {
    const missing = lines.map((l) => l.sellerId).filter((id) => !names.has(id));
    if (missing.length)
      for (const [id, name] of await userNames(db, period.clientId, missing)) names.set(id, name);
    return lines.map((l) => {
      if (l.createdAt !== lastAt) {
        lastAt = l.createdAt;
        lastText = formatInZone(l.createdAt, period.timeZone, 'sheet');
      }
      return lineCells(l, lastText, names.get(l.sellerId) ?? '');
    });
  }
  for await (const line of eachSaleLine(db, period)) {
    batch.push(line);
    if (batch.length === 2000) {
      yield await cells(batch);
      batch = [];
    }
  }
  if (batch.length) yield await cells(batch);
}

async function* flat<T>(batches: AsyncIterable<T[]>) {
  for await (const batch of batches) yield* batch;
}

/** The turnover's columns its PDF leaves out (the category is in its own table; the values behind the figures). */
const PDF_LEFT_OUT = {
  product: ['Categoria', 'Estoque inicial', 'Estoque final (qtd)', 'Estoque final'],
  category: ['Estoque final'],
};
function withoutColumns(table: Table, labels: string[]): Table {
  const keep = table.columns.flatMap((c, i) => (labels.includes(c.label) ? [] : [i]));
  return { columns: keep.map((i) => table.columns[i]), rows: table.rows.map((r) => keep.map((i) => r[i])) };
}

/** Financeiro > Relatórios (issue 34): the handlers of `reportApi`. */
export function reportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, reportApi.sales, (request) => salesReport(db, sessionOf(request), request.query));

    route(app, reportApi.salesCsv, async (request, reply) => {
      const actor = sessionOf(request);
      const { from, to, section } = request.query;
      const fileName = `relatorio-${section}-${from}-${to}.csv`;
      const today = await shopToday(db, actor.clientId);
      const header = (columns: Column[]) => `${columns.map((c) => textCell(c.label)).join(';')}\r\n`;
      if (section === 'lines') {
        const period = await reportPeriod(db, actor, from, to);
        // PostgreSQL writes the lines itself (COPY ... TO STDOUT); PGlite is read by keyset pages.
        const copied = await copyLines(db, saleLinesCsvSql(period, ORIGIN_SALE_LABELS));
        if (copied) {
          const head = header(LINE_COLUMNS);
          async function* body() {
            yield Buffer.from(head);
            for await (const chunk of copied as AsyncIterable<Buffer>) yield chunk;
          }
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${fileName}"`)
            .header('cache-control', 'no-store')
            .send(Readable.from(body(), { objectMode: false }));
        }
        return sendCsvStream(reply, 'relatorio', {
          header: header(LINE_COLUMNS),
          rows: flat(lineBatches(db, period)),
          lines: (rows) => csvLines(LINE_COLUMNS, rows),
          today,
          fileName,
        });
      }
      const table = reportTable(await salesReport(db, actor, request.query), section);
      return sendCsvStream(reply, 'relatorio', {
        header: header(table.columns),
        rows: each(table.rows),
        lines: (rows) => csvLines(table.columns, rows),
        today,
        fileName,
      });
    });

    route(app, reportApi.salesXlsx, async (request, reply) => {
      const actor = sessionOf(request);
      const { from, to, section } = request.query;
      const title = REPORT_SECTION_LABELS[section];
      let stream: Readable;
      if (section === 'lines') {
        const period = await reportPeriod(db, actor, from, to);
        // PostgreSQL writes each row's XML (COPY ... TO STDOUT); PGlite is read by keyset pages.
        const copied = await copyLines(
          db,
          xlsxRowsSql(LINE_COLUMNS, saleLinesSql(period, ORIGIN_SALE_LABELS)),
          { raw: true },
        );
        stream = copied
          ? xlsxFromRowXml(title, LINE_COLUMNS, copied as AsyncIterable<Buffer>)
          : xlsxStream(title, LINE_COLUMNS, flat(lineBatches(db, period)));
      } else {
        const table = reportTable(await salesReport(db, actor, request.query), section);
        stream = xlsxStream(title, table.columns, each(table.rows));
      }
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="relatorio-${section}-${from}-${to}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(stream);
    });

    route(app, reportApi.salesPdf, async (request, reply) => {
      const actor = sessionOf(request);
      const report = await salesReport(db, actor, request.query);
      const [client] = await db
        .select({ name: clients.name })
        .from(clients)
        .where(eq(clients.id, actor.clientId));
      const generatedAt = formatInZone(new Date().toISOString(), report.timeZone, 'dateTime');
      const tables = (
        ['period', 'method', 'seller', 'origin', 'category', 'product', 'hours', 'canceled'] as const
      ).map((section) => {
        // The product table's category (its own table) and running share stay in its files: A4 holds eight.
        const table = withoutColumns(
          reportTable(report, section),
          section === 'product' ? ['Categoria', 'Acumulado'] : [],
        );
        return {
          title: REPORT_SECTION_LABELS[section],
          head: table.columns.map((c) => c.label),
          rows: table.rows.map((cells) => cells.map((c, i) => cellText(c, table.columns[i].kind))),
        };
      });
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="relatorio-vendas-${report.from}-${report.to}.pdf"`,
        )
        .header('cache-control', 'no-store')
        .send(reportPdf(client?.name ?? '', report, tables, generatedAt));
    });

    // Stock turnover and days of stock (issue 34), exported as the sales report's tables.
    route(app, reportApi.stockTurnover, (request) =>
      stockTurnoverReport(db, sessionOf(request), request.query),
    );
    route(app, reportApi.stockTurnoverCsv, async (request, reply) => {
      const actor = sessionOf(request);
      const { from, to, section } = request.query;
      const table = turnoverTable(await stockTurnoverReport(db, actor, request.query), section);
      return sendCsvStream(reply, 'giro-de-estoque', {
        header: `${table.columns.map((c) => textCell(c.label)).join(';')}\r\n`,
        rows: each(table.rows),
        lines: (rows) => csvLines(table.columns, rows),
        today: await shopToday(db, actor.clientId),
        fileName: `giro-de-estoque-${section}-${from}-${to}.csv`,
      });
    });
    route(app, reportApi.stockTurnoverXlsx, async (request, reply) => {
      const actor = sessionOf(request);
      const { from, to, section } = request.query;
      const table = turnoverTable(await stockTurnoverReport(db, actor, request.query), section);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="giro-de-estoque-${section}-${from}-${to}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(xlsxStream(STOCK_TURNOVER_SECTION_LABELS[section], table.columns, each(table.rows)));
    });
    route(app, reportApi.stockTurnoverPdf, async (request, reply) => {
      const actor = sessionOf(request);
      const report = await stockTurnoverReport(db, actor, request.query);
      const { timeZone } = await reportPeriod(db, actor, report.from, report.to);
      const [client] = await db
        .select({ name: clients.name })
        .from(clients)
        .where(eq(clients.id, actor.clientId));
      // A4 portrait holds 8 columns: the PDF leaves out the quantities and values the figures come from.
      const tables = STOCK_TURNOVER_SECTIONS.map((section) => {
        const table = withoutColumns(turnoverTable(report, section), PDF_LEFT_OUT[section]);
        return {
          title: STOCK_TURNOVER_SECTION_LABELS[section],
          head: table.columns.map((c) => c.label),
          rows: table.rows.map((cells) => cells.map((c, i) => cellText(c, table.columns[i].kind))),
          empty: 'Nenhum produto com estoque ou venda no período.',
        };
      });
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="giro-de-estoque-${report.from}-${report.to}.pdf"`,
        )
        .header('cache-control', 'no-store')
        .send(
          turnoverPdf(
            client?.name ?? '',
            report,
            tables,
            formatInZone(new Date().toISOString(), timeZone, 'dateTime'),
          ),
        );
    });
  };
}
