import {
  type BuyerInterestQuote,
  buyerInterest,
  counterPrice,
  type FeeQuote,
  type FeeRates,
  quoteCredit,
  quoteFlat,
  quoteToNet,
  type SimulatorMode,
} from '@balcao/core/fees';

/** One cell of the simulator: a table's answer for a row (null: the table has no such row or no price). */
type BuyerCell = BuyerInterestQuote & {
  /** 'price': the acquirer's buyer interest (Price table); 'passOn': the fees passed on to the price. */
  kind: 'price' | 'passOn';
  /** What the shop receives. */
  netCents: number;
};
export type SimCell = { quote: FeeQuote | null; buyer: BuyerCell | null; main: number | null };
export type SimRow = {
  key: string;
  label: string;
  installments: number | null;
  cells: SimCell[];
  best: number[];
};

/** The buyer's side of n installments: the table's buyer interest, or the fees passed on when it has none. */
export function buyerCell(rates: FeeRates, priceCents: number, n: number): BuyerCell | null {
  if (n > rates.creditRates.length) return null;
  if (rates.buyerInterestRate > 0) {
    // 1x is a sale at sight: the buyer pays no interest.
    const quote = buyerInterest(priceCents, n, n === 1 ? 0 : rates.buyerInterestRate);
    // The acquirer finances the buyer: the shop gets the sale as a 1x one.
    return { ...quote, kind: 'price', netCents: quoteCredit(rates, priceCents, 1).netCents };
  }
  const counter = counterPrice(rates, priceCents, n);
  if (!counter) return null;
  return {
    kind: 'passOn',
    installments: n,
    installmentCents: counter.installmentCents,
    totalCents: counter.chargeCents,
    interestCents: counter.chargeCents - priceCents,
    netCents: quoteCredit(rates, counter.chargeCents, n).netCents,
  };
}

function cellOf(rates: FeeRates, mode: SimulatorMode, value: number, row: string | number): SimCell {
  if (typeof row === 'string') {
    const kind = row as 'pix' | 'debit';
    if (mode === 'buyer') return { quote: null, buyer: null, main: null };
    const quote = mode === 'receive' ? quoteFlat(rates, kind, value) : quoteToNet(rates, value, kind);
    return {
      quote,
      buyer: null,
      main: quote ? (mode === 'receive' ? quote.netCents : quote.grossCents) : null,
    };
  }
  if (row > rates.creditRates.length) return { quote: null, buyer: null, main: null };
  if (mode === 'buyer') {
    const buyer = buyerCell(rates, value, row);
    return { quote: null, buyer, main: buyer?.totalCents ?? null };
  }
  const quote = mode === 'receive' ? quoteCredit(rates, value, row) : quoteToNet(rates, value, 'credit', row);
  return {
    quote,
    buyer: null,
    main: quote ? (mode === 'receive' ? quote.netCents : quote.grossCents) : null,
  };
}

/**
 * Every row (Pix, debit, 1x..Nx: the union of the compared tables) with each table's answer and the
 * best per row: the highest net ("Quanto recebo"), the lowest price ("Quanto cobrar") or the lowest
 * total for the buyer. Ties are all best; a row with one answer marks nothing.
 */
export function simulate(ratesList: FeeRates[], mode: SimulatorMode, value: number): SimRow[] {
  const rows: (string | number)[] = [];
  if (mode !== 'buyer') {
    if (ratesList.some((r) => r.pixRate !== null)) rows.push('pix');
    if (ratesList.some((r) => r.debitRate !== null)) rows.push('debit');
  }
  const max = Math.max(0, ...ratesList.map((r) => r.creditRates.length));
  for (let n = 1; n <= max; n++) rows.push(n);
  return rows.map((row) => {
    const cells = ratesList.map((rates) => cellOf(rates, mode, value, row));
    const mains = cells.map((c) => c.main).filter((m): m is number => m !== null);
    const target = mode === 'receive' ? Math.max(...mains) : Math.min(...mains);
    const best =
      ratesList.length > 1 && mains.length > 1
        ? cells.flatMap((c, i) => (c.main !== null && c.main === target ? [i] : []))
        : [];
    return {
      key: String(row),
      label: row === 'pix' ? 'Pix' : row === 'debit' ? 'Débito' : `${row}x`,
      installments: typeof row === 'number' ? row : null,
      cells,
      best,
    };
  });
}
