import { describe, expect, it } from 'vitest';
import {
  computeDriverFee,
  computeShippingFee,
  type FallbackRow,
  type FeeRules,
  type FreightOption,
  fallbackQuote,
  shippingSettingInputSchema,
  sortFreightOptions,
} from './shipping.ts';

const base: FeeRules = {
  originZipCode: '01001000',
  feeMode: 'fixed',
  fixedPriceCents: 800,
  neighborhoods: [],
  cepRanges: [],
  distanceTiers: [],
  freeAboveCents: 0,
  minOrderCents: 0,
  deliveryTimeMinutes: 60,
  notServedNeighborhoods: [],
  notServedCepRanges: [],
  notServedMessage: '',
  driverFeeMode: 'fixed',
  driverFixedCents: 500,
  driverPerKmCents: 0,
  driverNeighborhoods: [],
  active: true,
  isDefault: true,
};
const rules = (overrides: Partial<FeeRules>): FeeRules => ({ ...base, ...overrides });

describe('computeShippingFee', () => {
  it('charges the fixed fee with its reason and the rule set time', () => {
    expect(computeShippingFee(base, { subtotalCents: 3000 })).toEqual({
      ok: true,
      feeCents: 800,
      ruleFeeCents: 800,
      timeMinutes: 60,
      reason: 'Taxa fixa: R$ 8,00',
      free: false,
      distanceKm: null,
    });
  });

  it('charges by neighbourhood, matching whatever the accents and case, with the row time', () => {
    const r = rules({
      feeMode: 'neighborhood',
      neighborhoods: [
        { name: 'Centro', feeCents: 500, timeMinutes: 30 },
        { name: 'São José', feeCents: 900, timeMinutes: 0 },
      ],
    });
    expect(computeShippingFee(r, { subtotalCents: 1000, neighborhood: 'centro' })).toMatchObject({
      ok: true,
      feeCents: 500,
      timeMinutes: 30,
      reason: 'Bairro Centro: R$ 5,00',
    });
    expect(computeShippingFee(r, { subtotalCents: 1000, neighborhood: ' SAO  jose ' })).toMatchObject({
      ok: true,
      feeCents: 900,
      timeMinutes: 60,
      reason: 'Bairro São José: R$ 9,00',
    });
    expect(computeShippingFee(r, { subtotalCents: 1000, neighborhood: 'Jardim Longe' })).toEqual({
      ok: false,
      code: 'not_served',
      message: 'Não entregamos neste endereço: bairro Jardim Longe fora da lista de entrega',
    });
    expect(computeShippingFee(r, { subtotalCents: 1000 })).toMatchObject({
      ok: false,
      code: 'address_required',
    });
  });

  it('charges by CEP range (inclusive ends)', () => {
    const r = rules({
      feeMode: 'cep_range',
      cepRanges: [
        { from: '01000000', to: '01099999', feeCents: 700, timeMinutes: 40 },
        { from: '01100000', to: '01999999', feeCents: 1200, timeMinutes: 0 },
      ],
    });
    expect(computeShippingFee(r, { subtotalCents: 0, zipCode: '01099-999' })).toMatchObject({
      ok: true,
      feeCents: 700,
      reason: 'CEP 01000-000 a 01099-999: R$ 7,00',
    });
    expect(computeShippingFee(r, { subtotalCents: 0, zipCode: '01100000' })).toMatchObject({
      feeCents: 1200,
    });
    expect(computeShippingFee(r, { subtotalCents: 0, zipCode: '02000000' })).toMatchObject({
      ok: false,
      code: 'not_served',
    });
  });

  it('charges by distance tier, asks for the distance when there is none, refuses beyond the last tier', () => {
    const r = rules({
      feeMode: 'distance',
      distanceTiers: [
        { upToKm: 3, feeCents: 499, timeMinutes: 30 },
        { upToKm: 6, feeCents: 799, timeMinutes: 45 },
      ],
    });
    expect(computeShippingFee(r, { subtotalCents: 0, distanceKm: 3 })).toMatchObject({
      ok: true,
      feeCents: 499,
      reason: 'Até 3 km (3 km): R$ 4,99',
      distanceKm: 3,
    });
    expect(computeShippingFee(r, { subtotalCents: 0, distanceKm: 3.01 })).toMatchObject({
      feeCents: 799,
      timeMinutes: 45,
      reason: 'Até 6 km (3,01 km): R$ 7,99',
    });
    expect(computeShippingFee(r, { subtotalCents: 0 })).toEqual({
      ok: false,
      code: 'distance_required',
      message: 'Não foi possível calcular a distância. Informe a distância em km.',
    });
    expect(computeShippingFee(r, { subtotalCents: 0, distanceKm: 6.5 })).toEqual({
      ok: false,
      code: 'not_served',
      message: 'Não entregamos neste endereço: 6,5 km, entregamos até 6 km',
    });
  });

  it('is free from the "free above" value on, saying which rule it waived', () => {
    const r = rules({ freeAboveCents: 10000 });
    expect(computeShippingFee(r, { subtotalCents: 9999 })).toMatchObject({ feeCents: 800, free: false });
    expect(computeShippingFee(r, { subtotalCents: 10000 })).toEqual({
      ok: true,
      feeCents: 0,
      ruleFeeCents: 800,
      timeMinutes: 60,
      reason: 'Grátis acima de R$ 100,00 (Taxa fixa: R$ 8,00)',
      free: true,
      distanceKm: null,
    });
  });

  it('refuses an order below the minimum', () => {
    const r = rules({ minOrderCents: 3000 });
    expect(computeShippingFee(r, { subtotalCents: 2999 })).toEqual({
      ok: false,
      code: 'below_minimum',
      message: 'Pedido mínimo para entrega: R$ 30,00',
    });
    expect(computeShippingFee(r, { subtotalCents: 3000 })).toMatchObject({ ok: true });
  });

  it('refuses areas not served before any fee, with the shop message when set', () => {
    const r = rules({
      notServedNeighborhoods: ['Ilha'],
      notServedCepRanges: [{ from: '09000000', to: '09999999' }],
      notServedMessage: 'Não atendemos esta região',
    });
    expect(computeShippingFee(r, { subtotalCents: 5000, neighborhood: 'ilha' })).toEqual({
      ok: false,
      code: 'not_served',
      message: 'Não atendemos esta região: bairro ilha',
    });
    expect(computeShippingFee(r, { subtotalCents: 5000, zipCode: '09123000' })).toEqual({
      ok: false,
      code: 'not_served',
      message: 'Não atendemos esta região: CEP 09123-000',
    });
  });
});

describe('computeDriverFee', () => {
  it('pays fixed, per km (rounded to the cent) or by neighbourhood; null when it cannot say', () => {
    expect(computeDriverFee(base, {})).toEqual({ feeCents: 500, reason: 'Fixo: R$ 5,00' });
    const perKm = rules({ driverFeeMode: 'per_km', driverPerKmCents: 120 });
    expect(computeDriverFee(perKm, { distanceKm: 3.33 })).toEqual({
      feeCents: 400,
      reason: '3,33 km × R$ 1,20: R$ 4,00',
    });
    expect(computeDriverFee(perKm, {})).toBeNull();
    const byHood = rules({
      driverFeeMode: 'neighborhood',
      driverNeighborhoods: [{ name: 'Centro', feeCents: 300 }],
    });
    expect(computeDriverFee(byHood, { neighborhood: 'CENTRO' })).toEqual({
      feeCents: 300,
      reason: 'Bairro Centro: R$ 3,00',
    });
    expect(computeDriverFee(byHood, { neighborhood: 'Outro' })).toBeNull();
  });
});

describe('shippingSettingInputSchema', () => {
  it('requires the rows of the chosen fee mode and the origin for distances', () => {
    const result = shippingSettingInputSchema.safeParse({ name: 'Entrega', feeMode: 'distance' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toContainEqual(['distanceTiers', 'Cadastre ao menos uma faixa de distância com a taxa']);
    expect(messages).toContainEqual([
      'originZipCode',
      'Informe o CEP de origem (o endereço da loja) para calcular a distância',
    ]);
  });

  it('refuses repeated neighbourhoods, tiers that do not grow and reversed CEP ranges', () => {
    const result = shippingSettingInputSchema.safeParse({
      name: 'Entrega',
      feeMode: 'neighborhood',
      neighborhoods: [
        { name: 'Centro', feeCents: 500 },
        { name: 'centro', feeCents: 600 },
      ],
      distanceTiers: [
        { upToKm: 5, feeCents: 100 },
        { upToKm: 5, feeCents: 200 },
      ],
      cepRanges: [{ from: '02000-000', to: '01000-000', feeCents: 100 }],
    });
    const messages = result.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toContainEqual(['neighborhoods.1.name', 'Bairro repetido na lista']);
    expect(messages).toContainEqual([
      'distanceTiers.1.upToKm',
      'As faixas de distância devem crescer (até 3 km, até 6 km...)',
    ]);
    expect(messages).toContainEqual(['cepRanges.0.to', 'O CEP final deve ser maior ou igual ao inicial']);
  });

  it('normalizes CEPs and fills defaults', () => {
    const parsed = shippingSettingInputSchema.parse({ name: ' Loja ', originZipCode: '01001-000' });
    expect(parsed).toMatchObject({
      name: 'Loja',
      originZipCode: '01001000',
      feeMode: 'fixed',
      deliveryTimeMinutes: 60,
      active: true,
    });
  });
});

describe('fallbackQuote', () => {
  const table: FallbackRow[] = [
    { from: '06000001', to: '06299999', upToKg: 13, priceCents: 17689, days: 3 },
    { from: '06000001', to: '06299999', upToKg: 6, priceCents: 15932, days: 3 },
    { from: '06000001', to: '06299999', upToKg: 25, priceCents: 19598, days: 4 },
  ];
  it('takes the smallest weight tier that holds the weight in the destination range', () => {
    expect(fallbackQuote(table, '06010-000', 5)).toEqual({ priceCents: 15932, days: 3 });
    expect(fallbackQuote(table, '06010000', 6.5)).toEqual({ priceCents: 17689, days: 3 });
    expect(fallbackQuote(table, '06010000', 30)).toBeNull();
    expect(fallbackQuote(table, '07000000', 1)).toBeNull();
  });
});

describe('sortFreightOptions', () => {
  const option = (serviceName: string, priceCents: number | null, days: number | null): FreightOption => ({
    carrier: 'melhor_envio',
    serviceId: serviceName,
    serviceName,
    companyName: 'X',
    companyPicture: null,
    priceCents,
    deliveryMinDays: days,
    deliveryMaxDays: days,
    estimate: false,
    error: null,
  });
  it('sorts by price or by time, services without a price last', () => {
    const list = [option('A', 3000, 2), option('B', null, null), option('C', 1500, 8)];
    expect(sortFreightOptions(list, 'price').map((o) => o.serviceName)).toEqual(['C', 'A', 'B']);
    expect(sortFreightOptions(list, 'time').map((o) => o.serviceName)).toEqual(['A', 'C', 'B']);
  });
});
