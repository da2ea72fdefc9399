import { CASH_FLOW_METHOD_LABELS, CASH_FLOW_METHODS } from '@balcao/core/cashFlowMethods';
import { formatDateBr } from '@balcao/core/date';
import type { CashFlow, DayClose, DreCompared, DreEntry, SalesByMethod } from '@balcao/core/finance';
import { PAY_METHOD_LABELS, type PayMethod } from '@balcao/core/payable';
import type { Cell, Column, Table } from '../report/tables.ts';

/** The cash flow and the DRE as typed tables (issue 34): what the XLSX and the cash flow's PDF write. */

const col = (label: string, kind: Column['kind'] = 'text'): Column => ({ label, kind });

export const CASH_FLOW_COLUMNS: Column[] = [
  col('Período'),
  col('Vendas recebidas', 'money'),
  col('Crediário recebido', 'money'),
  col('Contas pagas', 'money'),
  col('A receber (previsto)', 'money'),
  col('A pagar (previsto)', 'money'),
  col('Saldo realizado', 'money'),
  col('Saldo acumulado', 'money'),
];

/** Every period of the flow, then its totals (the opening balance first), then the previous period's totals. */
export function cashFlowTable(flow: CashFlow): Table {
  const t = flow.totals;
  const p = flow.previous;
  return {
    columns: CASH_FLOW_COLUMNS,
    rows: [
      ['Saldo inicial', null, null, null, null, null, null, flow.openingCents],
      ...flow.rows.map((r) => [
        formatDateBr(r.period),
        r.salesInCents,
        r.receivablesInCents,
        r.payablesOutCents,
        r.projectedInCents,
        r.projectedOutCents,
        r.netCents,
        r.balanceCents,
      ]),
      [
        'Total',
        t.salesInCents,
        t.receivablesInCents,
        t.payablesOutCents,
        t.projectedInCents,
        t.projectedOutCents,
        t.netCents,
        flow.closingCents,
      ],
      [
        `Período anterior (${formatDateBr(p.from)} a ${formatDateBr(p.to)})`,
        p.totals.salesInCents,
        p.totals.receivablesInCents,
        p.totals.payablesOutCents,
        p.totals.projectedInCents,
        p.totals.projectedOutCents,
        p.totals.netCents,
        p.closingCents,
      ],
    ],
  };
}

/** The sales received by payment method (issue 34): one row per period, then the totals. */
export function cashFlowMethodTable(flow: CashFlow): Table {
  const cells = (label: string, r: { salesByMethodCents: SalesByMethod; salesInCents: number }): Cell[] => [
    label,
    ...CASH_FLOW_METHODS.map((m) => r.salesByMethodCents[m]),
    r.salesInCents,
  ];
  return {
    columns: [
      col('Período'),
      ...CASH_FLOW_METHODS.map((m) => col(CASH_FLOW_METHOD_LABELS[m], 'money')),
      col('Vendas recebidas', 'money'),
    ],
    rows: [...flow.rows.map((r) => cells(formatDateBr(r.period), r)), cells('Total', flow.totals)],
  };
}

/** The XLSX's sheet: the cash flow's columns, then the sales received by method ("Vendas recebidas: Pix"). */
export function cashFlowXlsxTable(flow: CashFlow): Table {
  const main = cashFlowTable(flow);
  const split = (r: { salesByMethodCents: SalesByMethod }) =>
    CASH_FLOW_METHODS.map((m) => r.salesByMethodCents[m]);
  const parts = [null, ...flow.rows.map(split), split(flow.totals)];
  return {
    columns: [
      ...main.columns,
      ...CASH_FLOW_METHODS.map((m) => col(`Vendas recebidas: ${CASH_FLOW_METHOD_LABELS[m]}`, 'money')),
    ],
    rows: main.rows.map((cells, i) => [...cells, ...(parts[i] ?? CASH_FLOW_METHODS.map(() => null))]),
  };
}

/** The change from a previous figure in hundredths of a percent (a percent cell); null when there was none. */
export function changeBp(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / Math.abs(previous)) * 10000);
}

const monthText = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

/** The month's DRE beside the month before, as accountants read it: each line's value, the previous and the change. */
export function dreTable(dre: DreCompared): Table {
  const before = new Map(dre.previous.lines.map((l) => [l.key, l.amountCents]));
  const row = (label: string, current: number, previous: number): Cell[] => [
    label,
    current,
    previous,
    changeBp(current, previous),
  ];
  return {
    columns: [
      col('Linha'),
      col(monthText(dre.month), 'money'),
      col(monthText(dre.previous.month), 'money'),
      col('Variação', 'percent'),
    ],
    rows: [
      ...dre.lines.map((l) => row(l.label, l.amountCents, before.get(l.key) ?? 0)),
      row(
        'Compras de mercadorias no mês (estoque, fora do resultado)',
        dre.purchasesCents,
        dre.previous.purchasesCents,
      ),
    ],
  };
}

/** The day's close as one table: the sales by method and their total, each bill paid and their total, the net. */
export function dayCloseTable(close: DayClose): Table {
  return {
    columns: [col('Tipo'), col('Descrição'), col('Valor', 'money')],
    rows: [
      ...close.salesByMethod.map((m) => ['Venda', m.label, m.amountCents]),
      ['Total vendido', '', close.salesCents],
      ...close.expenses.map((e) => [
        'Conta paga',
        `${e.description} (${PAY_METHOD_LABELS[e.method as PayMethod] ?? e.method}${e.fromRegister ? ', do caixa' : ''})`,
        e.amountCents,
      ]),
      ['Total pago', '', close.expensesCents],
      ['Vendas menos contas pagas', '', close.netCents],
    ],
  };
}

const ENTRY_KIND_LABELS = {
  sale: 'Venda',
  return: 'Devolução',
  payable: 'Conta a pagar',
  fee: 'Taxa',
} as const;

/** The columns of the records behind a DRE line (what its CSV and XLSX write). */
export const DRE_ENTRY_COLUMNS = [col('Data'), col('Tipo'), col('Lançamento'), col('Valor', 'money')];

/**
 * Every record behind a DRE line as cells, then the line's total, streamed: the records come page by page
 * (`eachDreEntry`), never a whole month in memory.
 */
export async function* dreEntryRows(
  entries: AsyncIterable<DreEntry>,
  line: { label: string; amountCents: number },
): AsyncGenerator<Cell[]> {
  for await (const entry of entries)
    yield [
      entry.date ? formatDateBr(entry.date) : '',
      ENTRY_KIND_LABELS[entry.kind],
      entry.description,
      entry.amountCents,
    ];
  yield ['', '', `Total da linha: ${line.label}`, line.amountCents];
}
