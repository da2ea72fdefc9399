import { defaultDueDate, type Sale } from '@balcao/core/sale';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shopToday } from '../../lib/format.ts';
import {
  emptyPdv,
  type PdvLine,
  type PdvPayment,
  type PdvState,
  pdvPaymentCheck,
  pdvReducer,
  pdvToSaleInput,
  pdvTotals,
  usePdvState,
} from './state.ts';

const line = (changes: Partial<Omit<PdvLine, 'key'>> = {}): Omit<PdvLine, 'key'> => ({
  productId: 1,
  variantId: null,
  name: 'X-Burger',
  variantName: null,
  sku: null,
  barcode: null,
  unit: 'UN',
  fractional: false,
  quantity: 1,
  unitPriceCents: 2500,
  additionals: [],
  discountType: 'fixed_amount',
  discountValue: 0,
  ...changes,
});
const MUSTARD = { id: 11, name: 'Mostarda e mel', priceCents: 150, quantity: 1 };
const payment = (changes: Partial<PdvPayment>): PdvPayment => ({
  key: 'p1',
  method: 'money',
  amountCents: 0,
  numberInstallments: 1,
  dueDate: null,
  ...changes,
});
const run = (state: PdvState, ...actions: Parameters<typeof pdvReducer>[1][]) =>
  actions.reduce(pdvReducer, state);

describe('checkout state: the reducer', () => {
  it('starts empty at the items step, with a fresh Idempotency-Key per sale attempt', () => {
    const a = emptyPdv();
    const b = emptyPdv();
    expect(a).toMatchObject({ step: 0, items: [], customer: null, typeOfSale: 'store', payments: [] });
    expect(a.idempotencyKey).toMatch(/^[\x21-\x7e]{8,200}$/);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
  });

  it('adds a second scan of the same product to its line; add-ons, discounts and fractions get lines of their own', () => {
    const state = run(
      emptyPdv(),
      { type: 'addLine', line: line() },
      { type: 'addLine', line: line({ quantity: 2 }) },
      { type: 'addLine', line: line({ additionals: [MUSTARD] }) },
      { type: 'addLine', line: line({ additionals: [MUSTARD] }) },
      { type: 'addLine', line: line({ productId: 2, fractional: true, quantity: 0.5 }) },
      { type: 'addLine', line: line({ productId: 2, fractional: true, quantity: 0.25 }) },
    );
    expect(state.items.map((l) => [l.productId, l.quantity, l.additionals.length])).toEqual([
      [1, 3, 0],
      [1, 1, 1],
      [1, 1, 1],
      [2, 0.5, 0],
      [2, 0.25, 0],
    ]);
    expect(new Set(state.items.map((l) => l.key)).size).toBe(5);
  });

  it('adding from another step goes back to the items; lines update and go by key', () => {
    let state = run(emptyPdv(), { type: 'step', step: 2 }, { type: 'addLine', line: line() });
    expect(state.step).toBe(0);
    const [first] = state.items;
    state = run(state, { type: 'addLine', line: line({ productId: 2 }) });
    state = run(state, { type: 'updateLine', key: first.key, changes: { quantity: 4 } });
    expect(state.items[0].quantity).toBe(4);
    state = run(state, { type: 'removeLine', key: first.key });
    expect(state.items.map((l) => l.productId)).toEqual([2]);
  });

  it('keeps the delivery address only while the customer stays the same; a store sale has no freight', () => {
    const ana = { id: 7, name: 'Ana', document: null, phone: null };
    let state = run(
      emptyPdv(),
      { type: 'customer', customer: ana },
      { type: 'delivery', typeOfSale: 'delivery', deliveryAddressId: 3, freightCents: 800 },
    );
    expect(state).toMatchObject({ typeOfSale: 'delivery', deliveryAddressId: 3, freightCents: 800 });
    state = run(state, { type: 'customer', customer: { ...ana } });
    expect(state.deliveryAddressId).toBe(3);
    state = run(state, { type: 'customer', customer: { ...ana, id: 8, name: 'Bia' } });
    expect(state.deliveryAddressId).toBeNull();
    state = run(state, { type: 'delivery', typeOfSale: 'store', deliveryAddressId: null, freightCents: 800 });
    expect(state.freightCents).toBe(0);
  });

  it('a finished sale shows its receipt step; the next sale starts empty with a new key, keeping the last sale', () => {
    const sale = { id: 99 } as Sale;
    const before = run(emptyPdv(), { type: 'addLine', line: line() });
    const finished = run(before, { type: 'finished', sale });
    expect(finished).toMatchObject({ step: 3, items: [], lastSale: sale });
    expect(finished.idempotencyKey).not.toBe(before.idempotencyKey);
    const next = run(finished, { type: 'newSale' });
    expect(next).toMatchObject({ step: 0, items: [], lastSale: sale });
    expect(next.idempotencyKey).not.toBe(finished.idempotencyKey);
    const canceled = run(next, { type: 'addLine', line: line() }, { type: 'cancel' });
    expect(canceled).toMatchObject({ step: 0, items: [], lastSale: sale });
  });
});

describe('checkout state: totals and the sale body', () => {
  it('issue 36: a kg line of a shop whose scale truncates totals as the scale label, not half-up', () => {
    // 0,347 kg x R$ 29,90 = R$ 10,3753: the label says R$ 10,37.
    const kg = { unit: 'kg', fractional: true, quantity: 0.347, unitPriceCents: 2990 };
    const truncated = pdvTotals(run(emptyPdv(), { type: 'addLine', line: line({ ...kg, truncate: true }) }));
    expect(truncated.finalAmountCents).toBe(1037);
    const halfUp = pdvTotals(run(emptyPdv(), { type: 'addLine', line: line(kg) }));
    expect(halfUp.finalAmountCents).toBe(1038);
  });

  it('adds the add-ons to the unit price, then the sale discount, the coupon on the rest and the freight of a delivery', () => {
    const state = run(
      emptyPdv(),
      { type: 'addLine', line: line({ quantity: 2, additionals: [MUSTARD] }) },
      { type: 'addLine', line: line({ productId: 2, unitPriceCents: 1000, discountValue: 100 }) },
      { type: 'discount', discountType: 'percentage', discountValue: 1000 },
      { type: 'coupon', coupon: { code: 'DEZ', discountType: 'FIXED_AMOUNT', discountValue: 5 } },
    );
    const store = pdvTotals(state);
    expect(store).toMatchObject({
      itemsGrossCents: 2 * 2650 + 1000,
      itemsDiscountCents: 100,
      totalCents: 6200,
      discountCents: 620,
      couponDiscountCents: 500,
      freightCents: 0,
      finalAmountCents: 6200 - 620 - 500,
    });
    const delivery = pdvTotals(
      run(state, { type: 'delivery', typeOfSale: 'delivery', deliveryAddressId: 1, freightCents: 700 }),
    );
    expect(delivery.finalAmountCents).toBe(6200 - 620 - 500 + 700);
  });

  it('checks the payments against the total: short, too much without cash, and change from cash', () => {
    const state = run(emptyPdv(), { type: 'addLine', line: line() });
    const total = pdvTotals(state).finalAmountCents;
    const short = run(state, { type: 'payments', payments: [payment({ method: 'pix', amountCents: 2000 })] });
    expect(pdvPaymentCheck(short, total)).toMatchObject({ ok: false });
    const over = run(state, { type: 'payments', payments: [payment({ method: 'pix', amountCents: 3000 })] });
    expect(pdvPaymentCheck(over, total).ok).toBe(false);
    const cash = run(
      state,
      { type: 'payments', payments: [payment({ method: 'money', amountCents: 2500 })] },
      { type: 'cashDeposit', cents: 5000 },
    );
    expect(pdvPaymentCheck(cash, total)).toMatchObject({ ok: true, changeCents: 2500, status: 'finished' });
  });

  it('builds the POST /sale body: add-on ids, no address or freight for a store sale, a due date for crediário', () => {
    const ana = { id: 7, name: 'Ana', document: null, phone: null };
    const state = run(
      emptyPdv(),
      { type: 'addLine', line: line({ additionals: [MUSTARD], notes: 'sem cebola' }) },
      { type: 'customer', customer: ana },
      { type: 'seller', sellerId: 4 },
      { type: 'delivery', typeOfSale: 'delivery', deliveryAddressId: 3, freightCents: 700 },
      { type: 'delivery', typeOfSale: 'store', deliveryAddressId: 3, freightCents: 700 },
      { type: 'payments', payments: [payment({ method: 'creditShop', amountCents: 2650 })] },
    );
    expect(pdvToSaleInput(state)).toEqual({
      items: [
        {
          productId: 1,
          variantId: null,
          quantity: 1,
          additionals: [{ id: 11, quantity: 1 }],
          discountType: 'fixed_amount',
          discountValue: 0,
        },
      ],
      customerId: 7,
      sellerId: 4,
      typeOfSale: 'store',
      deliveryAddressId: null,
      freightCents: 0,
      discountType: 'fixed_amount',
      discountValue: 0,
      couponCode: null,
      payments: [
        {
          method: 'creditShop',
          amountCents: 2650,
          numberInstallments: 1,
          dueDate: defaultDueDate(shopToday()),
        },
      ],
      cashDepositAmountCents: 0,
    });
  });

  it('a delivery paid on delivery says how the customer pays, with the change only for cash', () => {
    const base = run(
      emptyPdv(),
      { type: 'addLine', line: line() },
      { type: 'delivery', typeOfSale: 'delivery', deliveryAddressId: 3, freightCents: 700 },
      { type: 'payments', payments: [payment({ method: 'paymentOnDelivery', amountCents: 3200 })] },
    );
    expect(pdvToSaleInput(base)).toMatchObject({
      deliveryAddressId: 3,
      freightCents: 700,
      delivery: { onDeliveryMethod: 'money', changeForCents: 0 },
    });
    const cash = run(base, { type: 'onDelivery', onDelivery: { method: 'money', changeForCents: 5000 } });
    expect(pdvToSaleInput(cash).delivery).toEqual({ onDeliveryMethod: 'money', changeForCents: 5000 });
    const card = run(base, { type: 'onDelivery', onDelivery: { method: 'debitCard', changeForCents: 5000 } });
    expect(pdvToSaleInput(card).delivery).toEqual({ onDeliveryMethod: 'debitCard', changeForCents: 0 });
    const paidNow = run(base, {
      type: 'payments',
      payments: [payment({ method: 'pix', amountCents: 3200 })],
    });
    expect(pdvToSaleInput(paidNow)).not.toHaveProperty('delivery');
  });
});

describe('checkout state: kept per user and mode', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('survives a reload, apart for the PDV and the budget PDV, and is forgotten once empty', () => {
    const pdv = renderHook(() => usePdvState(5));
    act(() => pdv.result.current.dispatch({ type: 'addLine', line: line({ quantity: 2 }) }));
    expect(pdv.result.current.totals.finalAmountCents).toBe(5000);
    pdv.unmount();

    const again = renderHook(() => usePdvState(5));
    expect(again.result.current.state.items.map((l) => l.quantity)).toEqual([2]);
    const budget = renderHook(() => usePdvState(5, 'budget'));
    expect(budget.result.current.state.items).toEqual([]);
    const otherUser = renderHook(() => usePdvState(6));
    expect(otherUser.result.current.state.items).toEqual([]);

    act(() => again.result.current.dispatch({ type: 'cancel' }));
    again.unmount();
    expect(renderHook(() => usePdvState(5)).result.current.state.items).toEqual([]);
  });
});
