import { formatDateBr } from '@balcao/core/date';
import type { CashFlow, Dre, DreEntries } from '@balcao/core/finance';
import type { Column, Table } from '../report/tables.ts';

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

/** Every period of the flow, then its totals (the opening balance first). */
export function cashFlowTable(flow: CashFlow): Table {
  const t = flow.totals;
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
    ],
  };
}

export function dreTable(dre: Dre): Table {
  return {
    columns: [col('Linha'), col('Valor', 'money')],
    rows: [
      ...dre.lines.map((l) => [l.label, l.amountCents]),
      ['Compras de mercadorias no mês (estoque, fora do resultado)', dre.purchasesCents],
    ],
  };
}

const ENTRY_KIND_LABELS = {
  sale: 'Venda',
  return: 'Devolução',
  payable: 'Conta a pagar',
  fee: 'Taxa',
} as const;

/** Every record behind a DRE line, then the line's total (what its CSV and XLSX write). */
export function dreEntriesTable(e: DreEntries): Table {
  return {
    columns: [col('Data'), col('Tipo'), col('Lançamento'), col('Valor', 'money')],
    rows: [
      ...e.entries.map((entry) => [
        entry.date ? formatDateBr(entry.date) : '',
        ENTRY_KIND_LABELS[entry.kind],
        entry.description,
        entry.amountCents,
      ]),
      ['', '', `Total da linha: ${e.label}`, e.amountCents],
    ],
  };
}
