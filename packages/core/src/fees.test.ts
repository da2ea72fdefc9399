import { describe, expect, it } from 'vitest';
import {
  buyerInterest,
  chargeAtRate,
  chargeFor,
  counterPrice,
  creditNetExact,
  creditSettlementDays,
  FEE_PRESETS,
  type FeeRates,
  feeRatesInputSchema,
  feeTableInputSchema,
  quoteCredit,
  quoteFlat,
  quoteToNet,
  simulateAll,
  surchargeFor,
} from './fees.ts';

/** The worked example of INTEGRATIONS.md: G = R$ 1.000,00, 6x, MDR 3.79%, a = 2.5% a.m. */
const G = 100_000;
const example = (over: Partial<FeeRates> = {}): FeeRates =>
  feeRatesInputSchema.parse({
    debitRate: 1.99,
    pixRate: null,
    creditRates: Array(12).fill(3.79),
    anticipationModel: 'simple',
    anticipationRate: 2.5,
    settlementDays: 30,
    ...over,
  });

describe('fee formulas: the worked example to the cent', () => {
  it('without anticipation: P = 166.67, net 962.10 over 6 months', () => {
    const rates = example({ anticipationModel: 'none' });
    const q = quoteCredit(rates, G, 6);
    expect(q.installmentCents).toBe(16_667);
    expect(q.netCents).toBe(96_210);
    expect(q.feeCents).toBe(3_790);
    expect(q.feePercent).toBe(3.79);
    // Paid monthly: the last installment arrives 30 + 5*30 days after the sale.
    expect(q.settlementDays).toBe(180);
  });

  it('linear (taxa única): 1,000 * (1 - 0.0379 - 0.15) = 812.10; a*(n-1) when the first is not anticipated', () => {
    expect(quoteCredit(example({ anticipationModel: 'linear' }), G, 6).netCents).toBe(81_210);
    const skip = example({ anticipationModel: 'linear', linearSkipsFirst: true });
    expect(quoteCredit(skip, G, 6).netCents).toBe(83_710);
    expect(quoteCredit(skip, G, 1).netCents).toBe(96_210);
  });

  it('simple per installment: 877.92 (cost 84.18); daily D+1: 878.72', () => {
    const q = quoteCredit(example(), G, 6);
    expect(q.netCents).toBe(87_792);
    expect(96_210 - q.netCents).toBe(8_418);
    expect(q.feePercent).toBe(12.21);
    const daily = example({ anticipationBasis: 'daily', settlementDays: 1 });
    expect(quoteCredit(daily, G, 6).netCents).toBe(87_872);
    // Anticipated: all the money on the settlement day.
    expect(quoteCredit(daily, G, 6).settlementDays).toBe(1);
  });

  it('compound per installment: 883.23 (cost 78.87), less than simple at equal a', () => {
    const q = quoteCredit(example({ anticipationModel: 'compound' }), G, 6);
    expect(q.netCents).toBe(88_323);
    expect(96_210 - q.netCents).toBe(7_887);
    expect(q.netCents).toBeGreaterThan(quoteCredit(example(), G, 6).netCents);
    // Daily compound, D+1, between simple daily and monthly compound.
    const daily = quoteCredit(
      example({ anticipationModel: 'compound', anticipationBasis: 'daily', settlementDays: 1 }),
      G,
      6,
    );
    expect(daily.netCents).toBeGreaterThan(88_323);
  });

  it('price to net R$ 1.000,00 at the simple effective rate: R$ 1.139,06', () => {
    expect(chargeFor(example(), G, 6)).toBe(113_906);
    const q = quoteToNet(example(), G, 'credit', 6);
    expect(q?.grossCents).toBe(113_906);
    expect(q?.netCents).toBe(G);
  });

  it('flat 12.40%: charge 1,141.55, never 1,124.00 (which nets only 984.62); R$ 100 -> 114.16 (112.40 nets 98.46)', () => {
    const flat = example({ anticipationModel: 'none', creditRates: Array(12).fill(12.4) });
    expect(chargeFor(flat, G, 12)).toBe(114_155);
    expect(quoteCredit(flat, 112_400, 12).netCents).toBe(98_462);
    expect(chargeFor(flat, 10_000, 12)).toBe(11_416);
    expect(quoteCredit(flat, 11_240, 12).netCents).toBe(9_846);
    expect(quoteCredit(flat, 114_155, 12).netCents).toBe(G);
  });

  it('buyer-paid interest 2.99% a.m., 12x on R$ 1.000,00: PMT 100.40, total 1,204.83', () => {
    expect(buyerInterest(G, 12, 2.99)).toEqual({
      installments: 12,
      installmentCents: 10_040,
      totalCents: 120_483,
      interestCents: 20_483,
    });
    // No interest: the price split in n.
    expect(buyerInterest(G, 4, 0)).toMatchObject({
      installmentCents: 25_000,
      totalCents: G,
      interestCents: 0,
    });
  });
});

describe('fee formulas: edge cases', () => {
  it('1x: every model takes the MDR and one month of anticipation (linear skipping the first: none)', () => {
    expect(quoteCredit(example({ anticipationModel: 'none' }), G, 1).netCents).toBe(96_210);
    expect(quoteCredit(example(), G, 1).netCents).toBe(93_805); // 962.10 * 0.975
    expect(quoteCredit(example({ anticipationModel: 'compound' }), G, 1).netCents).toBe(93_863); // 962.10 / 1.025
    expect(quoteCredit(example({ anticipationModel: 'linear' }), G, 1).netCents).toBe(93_710);
  });

  it('12x: the SumUp preset nets 87.35% at once on D+1', () => {
    const sumup = FEE_PRESETS.find((p) => p.key === 'sumup-d1');
    if (!sumup) throw new Error('preset');
    const q = quoteCredit(sumup, G, 12);
    expect(q).toMatchObject({ netCents: 87_350, feeCents: 12_650, feePercent: 12.65, settlementDays: 1 });
    expect(q.installmentCents).toBe(8_333);
  });

  it('0% anticipation: every model equals no anticipation', () => {
    for (const model of ['simple', 'compound', 'linear'] as const) {
      for (const basis of ['monthly', 'daily'] as const) {
        const rates = example({ anticipationModel: model, anticipationRate: 0, anticipationBasis: basis });
        expect(quoteCredit(rates, G, 6).netCents).toBe(96_210);
      }
    }
  });

  it('100% guard: rates that take the whole sale have no price; the net never goes below zero', () => {
    const greedy = example({
      anticipationModel: 'linear',
      anticipationRate: 9,
      creditRates: Array(12).fill(0),
    });
    // 12 * 9% = 108%.
    expect(creditNetExact(greedy, G, 12)).toBeLessThan(0);
    expect(quoteCredit(greedy, G, 12).netCents).toBe(0);
    expect(quoteCredit(greedy, G, 12).feeCents).toBe(G);
    expect(chargeFor(greedy, G, 12)).toBeNull();
    expect(quoteToNet(greedy, G, 'credit', 12)).toBeNull();
    expect(counterPrice(greedy, G, 12)).toBeNull();
    expect(surchargeFor(greedy, G, 12)).toBeNull();
    expect(chargeAtRate(G, 1)).toBeNull();
    // Exactly 100% (11 * 9% + 1%): still no price.
    expect(
      chargeFor(
        example({ anticipationModel: 'linear', anticipationRate: 9, creditRates: Array(12).fill(1) }),
        G,
        11,
      ),
    ).toBeNull();
  });

  it('an installment count the table does not hold is an error, not a guess', () => {
    expect(() => quoteCredit(example(), G, 13)).toThrow(RangeError);
    expect(() => quoteCredit(example(), G, 0)).toThrow(RangeError);
    expect(surchargeFor(example(), G, 13)).toBeNull();
  });

  it('debit and Pix: flat rates, D+1 and D+0; absent when the table has none', () => {
    const rates = example({ pixRate: 0.99 });
    expect(quoteFlat(rates, 'debit', G)).toMatchObject({
      netCents: 98_010,
      feeCents: 1_990,
      settlementDays: 1,
    });
    expect(quoteFlat(rates, 'pix', G)).toMatchObject({ netCents: 99_010, settlementDays: 0 });
    expect(quoteFlat(example(), 'pix', G)).toBeNull();
    expect(quoteToNet(rates, G, 'debit')?.grossCents).toBe(102_030); // 1000 / 0.9801
  });

  it('simulateAll gives every row at once: Pix, debit, then 1x..Nx', () => {
    const rows = simulateAll(example({ pixRate: 0.5 }), 'receive', G);
    expect(rows.map((r) => (r?.kind === 'credit' ? r.installments : r?.kind))).toEqual([
      'pix',
      'debit',
      ...Array.from({ length: 12 }, (_, i) => i + 1),
    ]);
    const charge = simulateAll(example(), 'charge', G);
    expect(charge[6]?.grossCents).toBe(113_906); // debit, 1x..6x
  });

  it('counter price: what to charge in n so the shop nets the price, installments rounded up', () => {
    const flat = example({ anticipationModel: 'none', creditRates: Array(12).fill(12.4) });
    expect(counterPrice(flat, G, 12)).toEqual({ chargeCents: 114_155, installmentCents: 9_513 });
    expect(surchargeFor(example(), G, 6)).toBe(13_906);
  });

  it('settlement: monthly without anticipation, at once otherwise', () => {
    expect(creditSettlementDays(example({ anticipationModel: 'none', settlementDays: 30 }), 12)).toBe(360);
    expect(
      creditSettlementDays(
        example({ anticipationModel: 'none', settlesAtOnce: true, settlementDays: 1 }),
        12,
      ),
    ).toBe(1);
    expect(creditSettlementDays(example({ settlementDays: 14 }), 12)).toBe(14);
  });
});

describe('rate table schema', () => {
  const base = {
    name: 'Minha SumUp',
    acquirer: 'SumUp',
    ratesDate: '2026-11-01',
    debitRate: '1,29',
    pixRate: '',
    creditRates: ['3,99', 5.79],
    anticipationModel: 'none',
    anticipationRate: '0',
    settlementDays: '1',
  };

  it('reads input text and numbers: comma decimals, blank Pix is none', () => {
    const parsed = feeTableInputSchema.parse(base);
    expect(parsed).toMatchObject({
      debitRate: 1.29,
      pixRate: null,
      creditRates: [3.99, 5.79],
      settlementDays: 1,
    });
    expect(parsed.verified).toBe(true);
  });

  it('refuses 100%, negative, three decimals, 19 installments, unknown models and bad dates', () => {
    const issues = (over: Record<string, unknown>) =>
      feeTableInputSchema
        .safeParse({ ...base, ...over })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ debitRate: 100 })).toEqual(['debitRate: A taxa deve ser de 0 a 99,99%']);
    expect(issues({ creditRates: ['-1'] })).toEqual(['creditRates.0: Informe uma taxa válida']);
    expect(issues({ anticipationRate: '2,555' })).toEqual([
      'anticipationRate: Use no máximo 2 casas decimais',
    ]);
    expect(issues({ creditRates: Array(19).fill(1) })).toEqual([
      'creditRates: Informe as taxas do crédito de 1x a no máximo 18x',
    ]);
    expect(issues({ creditRates: [] })).toEqual([
      'creditRates: Informe as taxas do crédito de 1x a no máximo 18x',
    ]);
    expect(issues({ anticipationModel: 'weird' })).toEqual([
      'anticipationModel: Selecione um modelo de antecipação válido',
    ]);
    expect(issues({ ratesDate: '2026-13-01' })).toEqual(['ratesDate: Informe a data das taxas']);
    expect(issues({ settlementDays: 61 })).toEqual(['settlementDays: Informe um número de dias de 0 a 60']);
    expect(issues({ name: ' ' })).toEqual(['name: Informe o nome da tabela']);
  });

  it('every preset is a valid table, dated', () => {
    for (const preset of FEE_PRESETS) {
      expect(feeTableInputSchema.safeParse(preset).success, preset.key).toBe(true);
      expect(preset.ratesDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(FEE_PRESETS.filter((p) => !p.verified).map((p) => p.acquirer)).toEqual([
      'Mercado Pago',
      'InfinitePay',
    ]);
  });
});
