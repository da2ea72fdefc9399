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
        columns: [col('Forma de pagamento'), col('Valor', 'money')],
        rows: report.byMethod.map((r) => [r.label, r.amountCents]),
      };
    case 'seller':
      return {
        columns: [
          col('Vendedor'),
          col('Vendas', 'int'),
          col('Valor líquido', 'money'),
          col('Ticket médio', 'money'),
          col('Descontos', 'money'),
        ],
        rows: report.bySeller.map((r) => [
          r.name,
          r.salesCount,
          r.netCents,
          r.averageTicketCents,
          r.discountsCents,
        ]),
      };
    case 'origin':
      return {
        columns: [col('Origem'), col('Vendas', 'int'), col('Valor líquido', 'money')],
        rows: report.byOrigin.map((r) => [r.label, r.salesCount, r.netCents]),
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
        ],
        rows: report.byCategory.map((r) => [r.name, r.quantity, r.revenueCents, r.costCents, r.marginCents]),
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
      return formatCents(value);
    case 'percent':
      return `${(value / 100).toFixed(2).replace('.', ',')}%`;
    case 'quantity':
      return String(value).replace('.', ',');
    default:
      return String(value);
  }
}
