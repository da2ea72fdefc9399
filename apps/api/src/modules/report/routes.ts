import { formatDateBr } from '@balcao/core/date';
import { reportApi } from '@balcao/core/endpoints/report';
import {
  REPORT_SECTION_LABELS,
  type ReportSection,
  type SalesReport,
  WEEKDAY_LABELS,
} from '@balcao/core/report';
import { ORIGIN_SALE_LABELS, type OriginSale } from '@balcao/core/sale';
import { formatInZone } from '@balcao/core/time';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Papa from 'papaparse';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { eachSaleLine, type SaleLineRow } from '../sale/reportFigures.ts';
import { reportPdf } from './pdf.ts';
import { reportPeriod, salesReport, userNames } from './service.ts';

const cents = (value: number) => (value / 100).toFixed(2).replace('.', ',');
const quantity = (value: number) => String(value).replace('.', ',');
const percent = (bp: number) => `${(bp / 100).toFixed(2).replace('.', ',')}%`;
// escapeFormulae: a product named "=..." stays text in the spreadsheet.
const csv = (rows: (string | number)[][]) =>
  rows.length ? `${Papa.unparse(rows, { delimiter: ';', escapeFormulae: true, newline: '\r\n' })}\r\n` : '';

async function* each<T>(items: T[]) {
  yield* items;
}

type Table = { head: string[]; rows: (string | number)[][] };

/** One of the report's tables, whole, as the CSV and the PDF show it. */
export function reportTable(report: SalesReport, section: Exclude<ReportSection, 'lines'>): Table {
  switch (section) {
    case 'period':
      return {
        head: ['Período', 'Vendas', 'Valor líquido'],
        rows: report.byPeriod.map((r) => [formatDateBr(r.period), r.salesCount, cents(r.netCents)]),
      };
    case 'method':
      return {
        head: ['Forma de pagamento', 'Valor'],
        rows: report.byMethod.map((r) => [r.label, cents(r.amountCents)]),
      };
    case 'seller':
      return {
        head: ['Vendedor', 'Vendas', 'Valor líquido', 'Ticket médio', 'Descontos'],
        rows: report.bySeller.map((r) => [
          r.name,
          r.salesCount,
          cents(r.netCents),
          cents(r.averageTicketCents),
          cents(r.discountsCents),
        ]),
      };
    case 'origin':
      return {
        head: ['Origem', 'Vendas', 'Valor líquido'],
        rows: report.byOrigin.map((r) => [r.label, r.salesCount, cents(r.netCents)]),
      };
    case 'product':
      return {
        head: [
          'Produto',
          'Categoria',
          'Quantidade',
          'Receita',
          'Custo',
          'Margem',
          'Participação',
          'Acumulado',
          'Curva',
        ],
        rows: report.byProduct.map((r) => [
          r.name,
          r.categoryName ?? '',
          quantity(r.quantity),
          cents(r.revenueCents),
          cents(r.costCents),
          cents(r.marginCents),
          percent(r.shareBp),
          percent(r.cumulativeBp),
          r.abc,
        ]),
      };
    case 'category':
      return {
        head: ['Categoria', 'Quantidade', 'Receita', 'Custo', 'Margem'],
        rows: report.byCategory.map((r) => [
          r.name,
          quantity(r.quantity),
          cents(r.revenueCents),
          cents(r.costCents),
          cents(r.marginCents),
        ]),
      };
    case 'hours':
      return {
        head: ['Dia da semana', 'Hora', 'Vendas', 'Valor líquido'],
        rows: report.heatMap.map((r) => [
          WEEKDAY_LABELS[r.weekday],
          `${String(r.hour).padStart(2, '0')}h`,
          r.salesCount,
          cents(r.netCents),
        ]),
      };
    case 'canceled':
      return {
        head: ['Cancelada por', 'Vendas', 'Valor'],
        rows: report.canceled.map((r) => [r.name, r.salesCount, cents(r.netCents)]),
      };
  }
}

const LINE_HEAD = [
  'Venda',
  'Data',
  'Vendedor',
  'Origem',
  'Código do produto',
  'Descrição',
  'Variação',
  'SKU',
  'Código de barras',
  'Quantidade',
  'Devolvido',
  'Preço unitário',
  'Desconto do item',
  'Total do item',
  'Valor devolvido',
];

/**
 * A text cell as Papa writes it with `escapeFormulae` (a leading =, +, -, @, tab or CR gets a "'" and quotes; a
 * cell with the separator, a quote, a line break or edge spaces is quoted): the lines export writes millions
 * of cells, and only its text columns need it.
 */
export function textCell(value: string | null): string {
  if (!value) return '';
  const formula = /^[=+\-@\t\r]/.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[;"\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Every sale line of the period, with its seller's name (looked up once per batch of new ids) and its
 * sale's time (formatted once per sale: a sale's lines come together).
 */
async function lineCsv(db: Executor, clientId: number, timeZone: string) {
  const names = new Map<number, string>();
  let lastAt = '';
  let lastText = '';
  const when = (at: string) => {
    if (at !== lastAt) {
      lastAt = at;
      lastText = formatInZone(at, timeZone, 'sheet');
    }
    return lastText;
  };
  return async (batch: SaleLineRow[]) => {
    const missing = batch.map((l) => l.sellerId).filter((id) => !names.has(id));
    if (missing.length)
      for (const [id, name] of await userNames(db, clientId, missing)) names.set(id, textCell(name));
    let out = '';
    for (const l of batch)
      out += `${l.number};${when(l.createdAt)};${names.get(l.sellerId) ?? ''};${textCell(
        ORIGIN_SALE_LABELS[l.origin as OriginSale] ?? l.origin,
      )};${l.productId ?? ''};${textCell(l.description)};${textCell(l.variantName)};${textCell(l.sku)};${textCell(
        l.barcode,
      )};${quantity(l.quantity)};${quantity(l.returnedQuantity)};${cents(l.unitPriceCents)};${cents(
        l.discountCents,
      )};${cents(l.totalCents)};${cents(l.returnedCents)}\r\n`;
    return out;
  };
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
      if (section === 'lines') {
        const period = await reportPeriod(db, actor, from, to);
        const lines = await lineCsv(db, actor.clientId, period.timeZone);
        // A batch's names are looked up before its lines are written: `lines` is async, so the
        // stream is fed through an async generator of finished text.
        async function* text() {
          let batch: SaleLineRow[] = [];
          for await (const line of eachSaleLine(db, period)) {
            batch.push(line);
            if (batch.length === 2000) {
              yield await lines(batch);
              batch = [];
            }
          }
          if (batch.length) yield await lines(batch);
        }
        return sendCsvStream(reply, 'relatorio', {
          header: csv([LINE_HEAD]),
          rows: text(),
          lines: (chunks) => chunks.join(''),
          today,
          fileName,
        });
      }
      const report = await salesReport(db, actor, request.query);
      const table = reportTable(report, section);
      return sendCsvStream(reply, 'relatorio', {
        header: csv([table.head]),
        rows: each(table.rows),
        lines: (batch) => csv(batch),
        today,
        fileName,
      });
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
      ).map((section) => ({ title: REPORT_SECTION_LABELS[section], ...reportTable(report, section) }));
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="relatorio-vendas-${report.from}-${report.to}.pdf"`,
        )
        .header('cache-control', 'no-store')
        .send(reportPdf(client?.name ?? '', report, tables, generatedAt));
    });
  };
}
