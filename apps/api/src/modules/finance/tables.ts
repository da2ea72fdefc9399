import { formatDateBr } from '@balcao/core/date';
import type { CashFlow, Dre } from '@balcao/core/finance';
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
