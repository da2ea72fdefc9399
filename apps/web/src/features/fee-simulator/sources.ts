import { formatDateBr } from '@balcao/core/date';
import { FEE_PRESETS, type FeeRates, type FeeTable } from '@balcao/core/fees';

/** What the simulator can compute with: one of the shop's tables, or a dated preset not saved yet. */
export type FeeSource = {
  /** 't:<id>' for a shop table, 'p:<key>' for a preset. */
  id: string;
  label: string;
  acquirer: string;
  rates: FeeRates;
  verified: boolean;
  ratesDate: string;
  /** The preset's note (what to check), empty for the shop's tables. */
  note: string;
  own: boolean;
};

function ratesOf(table: FeeRates): FeeRates {
  return {
    debitRate: table.debitRate,
    pixRate: table.pixRate,
    creditRates: table.creditRates,
    anticipationModel: table.anticipationModel,
    anticipationRate: table.anticipationRate,
    anticipationBasis: table.anticipationBasis,
    linearSkipsFirst: table.linearSkipsFirst,
    settlementDays: table.settlementDays,
    settlesAtOnce: table.settlesAtOnce,
    buyerInterestRate: table.buyerInterestRate,
  };
}

/** The shop's tables first, then the presets (INTEGRATIONS.md), each with its date. */
export function feeSources(tables: readonly FeeTable[]): FeeSource[] {
  return [
    ...tables.map((t) => ({
      id: `t:${t.id}`,
      label: t.name,
      acquirer: t.acquirer,
      rates: ratesOf(t),
      verified: t.verified,
      ratesDate: t.ratesDate,
      note: '',
      own: true,
    })),
    ...FEE_PRESETS.map((p) => ({
      id: `p:${p.key}`,
      label: `${p.name} (modelo)`,
      acquirer: p.acquirer,
      rates: ratesOf(p),
      verified: p.verified,
      ratesDate: p.ratesDate,
      note: p.note,
      own: false,
    })),
  ];
}

/** "taxas de 01/11/2026 · não verificada" */
export function sourceDateLine(source: Pick<FeeSource, 'ratesDate' | 'verified'>): string {
  return `taxas de ${formatDateBr(source.ratesDate)}${source.verified ? '' : ' · não verificada'}`;
}
