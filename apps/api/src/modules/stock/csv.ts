import { STOCK_MOVEMENT_TYPE_LABELS, type StockMovement, stockReasonLabel } from '@balcao/core/stock';
import { formatInZone } from '@balcao/core/time';
import Papa from 'papaparse';

/**
 * CSV export of the movement history with the spreadsheet conventions of Brazil used by the
 * product export: semicolon separated, decimal comma, UTF-8 with BOM, formula-safe cells.
 */

const MOVEMENT_CSV_COLUMNS = [
  'data',
  'tipo',
  'produto',
  'variacao',
  'quantidade',
  'unidade',
  'custo_unitario',
  'motivo',
  'documento',
  'observacao',
  'usuario',
] as const;

const decimal = (value: number) => String(value).replace('.', ',');
const money = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2).replace('.', ','));

export function movementsCsvHeader(): string {
  return `\uFEFF${Papa.unparse([MOVEMENT_CSV_COLUMNS as unknown as string[]], { delimiter: ';' })}\r\n`;
}

export function movementsCsvLines(items: StockMovement[], timeZone: string): string {
  if (items.length === 0) return '';
  const rows = items.map((m) => [
    formatInZone(m.createdAt, timeZone, 'sheet'),
    STOCK_MOVEMENT_TYPE_LABELS[m.type],
    m.product.name,
    m.variant?.name ?? '',
    decimal(m.quantity),
    m.product.unit,
    money(m.unitCostCents),
    stockReasonLabel(m.reason),
    m.document ?? '',
    m.note ?? '',
    m.user?.name ?? '',
  ]);
  return `${Papa.unparse(rows, { delimiter: ';', header: false, escapeFormulae: true })}\r\n`;
}
