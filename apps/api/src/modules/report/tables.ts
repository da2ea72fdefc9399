import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { type ReportSection, type SalesReport, WEEKDAY_LABELS } from '@balcao/core/report';
import { ORIGIN_SALE_LABELS, type OriginSale } from '@balcao/core/sale';
import type { SaleLineRow } from '../sale/reportFigures.ts';

/**
 * The report's tables as typed cells (issue 34): one description that the CSV, the XLSX and the PDF
 * each write their way (money in cents, shares in hundredths of a percent).
 */
export type ColumnKind = 'text' | 'int' | 'quantity' | 'money' | 'percent' | 'date' | 'dateTime';
export type Column = { label: string; kind: ColumnKind };
export type Cell = string | number | null;
export type Table = { columns: Column[]; rows: Cell[][] };

const col = (label: string, kind: ColumnKind = 'text'): Column => ({ label, kind });
/** The previous period's figure of a row (the period of the same length just before). */
const PREVIOUS_VALUE = 'Período anterior';
const PREVIOUS_REVENUE = 'Receita no período anterior';

/** One of the report's tables, whole. */
export function reportTable(report: SalesReport, section: Exclude<ReportSection, 'lines'>): Table {
  switch (section) {
    case 'period':
      return {
        columns: [col('Período'), col('Vendas', 'int'), col('Valor líquido', 'money')],
        rows: report.byPeriod.map((r) => [formatDateBr(r.period), r.salesCount, r.netCents]),
      };
    case 'method':
      return {
        columns: [col('Forma de pagamento'), col('Valor', 'money'), col(PREVIOUS_VALUE, 'money')],
        rows: report.byMethod.map((r) => [r.label, r.amountCents, r.previousAmountCents]),
      };
    case 'seller':
      return {
        columns: [
          col('Vendedor'),
          col('Vendas', 'int'),
          col('Valor líquido', 'money'),
          col('Ticket médio', 'money'),
          col('Descontos', 'money'),
          col(PREVIOUS_VALUE, 'money'),
        ],
        rows: report.bySeller.map((r) => [
          r.name,
          r.salesCount,
          r.netCents,
          r.averageTicketCents,
          r.discountsCents,
          r.previousNetCents,
        ]),
      };
    case 'origin':
      return {
        columns: [
          col('Origem'),
          col('Vendas', 'int'),
          col('Valor líquido', 'money'),
          col(PREVIOUS_VALUE, 'money'),
        ],
        rows: report.byOrigin.map((r) => [r.label, r.salesCount, r.netCents, r.previousNetCents]),
      };
    case 'product':
      return {
        columns: [
          col('Produto'),
          col('Categoria'),
          col('Quantidade', 'quantity'),
          col('Receita', 'money'),
          col('Custo', 'money'),
          col('Margem', 'money'),
          col('Participação', 'percent'),
          col('Acumulado', 'percent'),
          col('Curva'),
          col(PREVIOUS_REVENUE, 'money'),
        ],
        rows: report.byProduct.map((r) => [
          r.name,
          r.categoryName ?? '',
          r.quantity,
          r.revenueCents,
          r.costCents,
          r.marginCents,
          r.shareBp,
          r.cumulativeBp,
          r.abc,
          r.previousRevenueCents,
        ]),
      };
    case 'category':
      return {
        columns: [
          col('Categoria'),
          col('Quantidade', 'quantity'),
          col('Receita', 'money'),
          col('Custo', 'money'),
          col('Margem', 'money'),
          col(PREVIOUS_REVENUE, 'money'),
        ],
        rows: report.byCategory.map((r) => [
          r.name,
          r.quantity,
          r.revenueCents,
          r.costCents,
          r.marginCents,
          r.previousRevenueCents,
        ]),
      };
    case 'hours':
      return {
        columns: [col('Dia da semana'), col('Hora'), col('Vendas', 'int'), col('Valor líquido', 'money')],
        rows: report.heatMap.map((r) => [
          WEEKDAY_LABELS[r.weekday],
          `${String(r.hour).padStart(2, '0')}h`,
          r.salesCount,
          r.netCents,
        ]),
      };
    case 'canceled':
      return {
        columns: [col('Cancelada por'), col('Vendas', 'int'), col('Valor', 'money')],
        rows: report.canceled.map((r) => [r.name, r.salesCount, r.netCents]),
      };
  }
}

/** The columns of every sale line (the `lines` export). */
export const LINE_COLUMNS: Column[] = [
  col('Venda', 'int'),
  col('Data', 'dateTime'),
  col('Vendedor'),
  col('Origem'),
  col('Código do produto', 'int'),
  col('Descrição'),
  col('Variação'),
  col('SKU'),
  col('Código de barras'),
  col('Quantidade', 'quantity'),
  col('Devolvido', 'quantity'),
  col('Preço unitário', 'money'),
  col('Desconto do item', 'money'),
  col('Total do item', 'money'),
  col('Valor devolvido', 'money'),
];

/** A sale line's cells in LINE_COLUMNS' order (its time and seller already written as text). */
export function lineCells(l: SaleLineRow, when: string, seller: string): Cell[] {
  return [
    l.number,
    when,
    seller,
    ORIGIN_SALE_LABELS[l.origin as OriginSale] ?? l.origin,
    l.productId,
    l.description,
    l.variantName,
    l.sku,
    l.barcode,
    l.quantity,
    l.returnedQuantity,
    l.unitPriceCents,
    l.discountCents,
    l.totalCents,
    l.returnedCents,
  ];
}

/** A cell as people read it (the PDF): R$ for money, a decimal comma, a percent sign. */
export function cellText(value: Cell, kind: ColumnKind): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  switch (kind) {
    case 'money':
      // A deduction of nothing is -0: written as 0.
      return formatCents(value || 0);
    case 'percent':
      return `${(value / 100).toFixed(2).replace('.', ',')}%`;
    case 'quantity':
      return String(value).replace('.', ',');
    default:
      return String(value);
  }
}

/** CSV (issue 34): the reports' cells as the CSV exports write them. */
const cents = (value: number) => (value / 100).toFixed(2).replace('.', ',');
const quantity = (value: number) => String(value).replace('.', ',');

/** A CSV cell of a column: money "39,00", a share "79,59%", a decimal comma; text as Papa writes it. */
export function csvCell(value: Cell, kind: ColumnKind): string {
  if (value === null) return '';
  if (typeof value === 'string') return textCell(value);
  switch (kind) {
    case 'money':
      return cents(value);
    case 'percent':
      return `${(value / 100).toFixed(2).replace('.', ',')}%`;
    case 'quantity':
      return quantity(value);
    default:
      return String(value);
  }
}

/** Rows of cells as CSV lines, each cell as its column writes it (the finance exports write theirs the same way). */
export const csvLines = (columns: Column[], rows: Cell[][]) =>
  rows.map((cells) => `${cells.map((c, i) => csvCell(c, columns[i].kind)).join(';')}\r\n`).join('');

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
