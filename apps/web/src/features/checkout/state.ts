import type { Coupon } from '@balcao/core/coupon';
import { couponDiscountCents } from '@balcao/core/coupon';
import type { OnDeliveryMethod } from '@balcao/core/delivery';
import {
  checkPayments,
  computeSaleTotals,
  type DiscountKind,
  defaultDueDate,
  type Sale,
  type SaleInput,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { newIdempotencyKey } from '../../lib/client.ts';
import { shopToday } from '../../lib/format.ts';
import { loadPersisted, removePersisted, savePersisted } from '../../lib/persist.ts';

/**
 * The PDV working state (spec 3 "Point-of-sale working state"), kept in local storage per user
 * (lib/persist.ts) so a reload never loses a sale: it is cleared only when the sale is finished or
 * canceled.
 */

export type PdvLine = {
  key: string;
  productId: number;
  variantId: number | null;
  name: string;
  variantName: string | null;
  sku: string | null;
  barcode: string | null;
  unit: string;
  /** Decimal units (kg...) take fractions. */
  fractional: boolean;
  quantity: number;
  unitPriceCents: number;
  additionals: { id: number; name: string; priceCents: number; quantity: number }[];
  discountType: DiscountKind;
  discountValue: number;
  /** A note on the line (the budget PDV's lines); the PDV sends none. */
  notes?: string | null;
  /**
   * Issue 36: a kg product in a shop whose scale truncates: the line's gross is cut down to the cent
   * (core lineTotals), as the API prices it and the scale's label shows.
   */
  truncate?: boolean;
};

export type PdvCustomer = {
  id: number;
  name: string;
  document: string | null;
  phone: string | null;
  isDelinquent?: boolean;
};

export type PdvPayment = {
  key: string;
  method: PaymentMethod;
  amountCents: number;
  numberInstallments: number;
  dueDate: string | null;
  /** Pix QR dinâmico (issue 33): the bank confirmed it (the sale may finish). */
  pixPaid?: boolean;
  /** Pix QR dinâmico: its charge's txid (withdrawn when the payment is removed unpaid). */
  pixTxid?: string;
  /** Pix QR dinâmico already paid elsewhere (a budget's link, issue 33): shown as this, no new charge. */
  pixPaidNote?: string;
};

/** Waiting for the bank: a Pix QR dinâmico payment not yet confirmed keeps the sale open. */
export const PIX_WAITING_MESSAGE = 'Aguardando a confirmação do Pix QR dinâmico pelo banco';

/** The Pix QR dinâmico charge of a payment: the sale attempt's key plus the payment's own. */
export const pixAttemptKey = (state: Pick<PdvState, 'idempotencyKey'>, payment: Pick<PdvPayment, 'key'>) =>
  `${state.idempotencyKey}:${payment.key}`;

export type PdvState = {
  step: 0 | 1 | 2 | 3;
  items: PdvLine[];
  customer: PdvCustomer | null;
  /** The seller credited (saleSeller); null = the user at the PDV. */
  sellerId: number | null;
  typeOfSale: 'store' | 'delivery';
  deliveryAddressId: number | null;
  freightCents: number;
  discountType: DiscountKind;
  discountValue: number;
  coupon: Pick<Coupon, 'code' | 'discountType' | 'discountValue'> | null;
  payments: PdvPayment[];
  /** Cash handed over (0 = the money amount typed). */
  cashDepositAmountCents: number;
  /** One per sale attempt, kept across retries of it (POST /v1/sale Idempotency-Key). */
  idempotencyKey: string;
  lastSale: Sale | null;
  /** Paid on delivery: how the customer pays and the note to bring change for (issue 18). */
  onDelivery?: { method: OnDeliveryMethod; changeForCents: number };
  /** "CPF na nota?" (issue 32): the consumer's CPF or CNPJ on the NFC-e, as typed. */
  consumerDocument?: string;
};

export const emptyPdv = (lastSale: Sale | null = null): PdvState => ({
  step: 0,
  items: [],
  customer: null,
  sellerId: null,
  typeOfSale: 'store',
  deliveryAddressId: null,
  freightCents: 0,
  discountType: 'fixed_amount',
  discountValue: 0,
  coupon: null,
  payments: [],
  cashDepositAmountCents: 0,
  idempotencyKey: newIdempotencyKey(),
  lastSale,
});

export type PdvAction =
  | { type: 'step'; step: PdvState['step'] }
  | { type: 'addLine'; line: Omit<PdvLine, 'key'> }
  | { type: 'updateLine'; key: string; changes: Partial<PdvLine> }
  | { type: 'removeLine'; key: string }
  | { type: 'customer'; customer: PdvCustomer | null }
  | { type: 'seller'; sellerId: number | null }
  | {
      type: 'delivery';
      typeOfSale: 'store' | 'delivery';
      deliveryAddressId: number | null;
      freightCents: number;
    }
  | { type: 'discount'; discountType: DiscountKind; discountValue: number }
  | { type: 'coupon'; coupon: PdvState['coupon'] }
  | { type: 'payments'; payments: PdvPayment[] }
  | { type: 'cashDeposit'; cents: number }
  | { type: 'consumerDocument'; document: string }
  | { type: 'onDelivery'; onDelivery: { method: OnDeliveryMethod; changeForCents: number } }
  | { type: 'finished'; sale: Sale }
  | { type: 'newSale' }
  | { type: 'cancel' };

let lineSeq = 0;
const lineKey = () => `${Date.now().toString(36)}${(++lineSeq).toString(36)}`;

export function pdvReducer(state: PdvState, action: PdvAction): PdvState {
  switch (action.type) {
    case 'step':
      return { ...state, step: action.step };
    case 'addLine': {
      // The same product/variant without add-ons or discount adds to the existing line (a second scan).
      const same = state.items.find(
        (l) =>
          l.productId === action.line.productId &&
          l.variantId === action.line.variantId &&
          l.additionals.length === 0 &&
          action.line.additionals.length === 0 &&
          l.discountValue === 0 &&
          !l.fractional,
      );
      if (same) {
        return {
          ...state,
          step: 0,
          items: state.items.map((l) =>
            l.key === same.key ? { ...l, quantity: l.quantity + action.line.quantity } : l,
          ),
        };
      }
      return { ...state, step: 0, items: [...state.items, { ...action.line, key: lineKey() }] };
    }
    case 'updateLine':
      return {
        ...state,
        items: state.items.map((l) => (l.key === action.key ? { ...l, ...action.changes } : l)),
      };
    case 'removeLine':
      return { ...state, items: state.items.filter((l) => l.key !== action.key) };
    case 'customer':
      return {
        ...state,
        customer: action.customer,
        deliveryAddressId: action.customer?.id === state.customer?.id ? state.deliveryAddressId : null,
      };
    case 'seller':
      return { ...state, sellerId: action.sellerId };
    case 'delivery':
      return {
        ...state,
        typeOfSale: action.typeOfSale,
        deliveryAddressId: action.deliveryAddressId,
        freightCents: action.typeOfSale === 'delivery' ? action.freightCents : 0,
      };
    case 'discount':
      return { ...state, discountType: action.discountType, discountValue: action.discountValue };
    case 'coupon':
      return { ...state, coupon: action.coupon };
    case 'payments':
      return { ...state, payments: action.payments };
    case 'cashDeposit':
      return { ...state, cashDepositAmountCents: action.cents };
    case 'consumerDocument':
      return { ...state, consumerDocument: action.document };
    case 'onDelivery':
      return { ...state, onDelivery: action.onDelivery };
    case 'finished':
      return { ...emptyPdv(action.sale), step: 3 };
    case 'newSale':
      return emptyPdv(state.lastSale);
    case 'cancel':
      return emptyPdv(state.lastSale);
  }
}

/** Totals as the server will compute them (core computeSaleTotals / couponDiscountCents). */
export function pdvTotals(state: PdvState) {
  const base = {
    lines: state.items.map((l) => ({
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      additionals: l.additionals,
      discountType: l.discountType,
      discountValue: l.discountValue,
      truncate: l.truncate,
    })),
    discountType: state.discountType,
    discountValue: state.discountValue,
    freightCents: state.typeOfSale === 'delivery' ? state.freightCents : 0,
  };
  const withoutCoupon = computeSaleTotals(base);
  const couponCents = state.coupon ? couponDiscountCents(state.coupon, withoutCoupon.totalCents) : 0;
  return computeSaleTotals({ ...base, couponDiscountCents: couponCents });
}

export function pdvPaymentCheck(state: PdvState, finalAmountCents: number) {
  if (state.payments.some((p) => p.method === 'pixQrCode' && !p.pixPaid))
    return {
      ok: false as const,
      message: PIX_WAITING_MESSAGE,
      issues: [{ path: 'payments', message: PIX_WAITING_MESSAGE }],
    };
  return checkPayments({
    finalAmountCents,
    payments: state.payments,
    cashDepositAmountCents: state.cashDepositAmountCents,
    customerId: state.customer?.id ?? null,
    typeOfSale: state.typeOfSale,
    today: shopToday(),
  });
}

/** The POST /v1/sale body. */
export function pdvToSaleInput(state: PdvState): SaleInput {
  return {
    items: state.items.map((l) => ({
      productId: l.productId,
      variantId: l.variantId,
      quantity: l.quantity,
      additionals: l.additionals.map((a) => ({ id: a.id, quantity: a.quantity })),
      discountType: l.discountType,
      discountValue: l.discountValue,
    })),
    customerId: state.customer?.id ?? null,
    sellerId: state.sellerId ?? null,
    typeOfSale: state.typeOfSale,
    deliveryAddressId: state.typeOfSale === 'delivery' ? state.deliveryAddressId : null,
    freightCents: state.typeOfSale === 'delivery' ? state.freightCents : 0,
    discountType: state.discountType,
    discountValue: state.discountValue,
    couponCode: state.coupon?.code ?? null,
    payments: state.payments.map((p) => ({
      method: p.method,
      amountCents: p.amountCents,
      numberInstallments: p.numberInstallments,
      dueDate:
        p.method === 'creditShop' || p.method === 'boleto'
          ? (p.dueDate ?? defaultDueDate(shopToday()))
          : null,
    })),
    cashDepositAmountCents: state.cashDepositAmountCents,
    ...(state.consumerDocument?.trim() ? { consumerDocument: state.consumerDocument.trim() } : {}),
    ...(state.typeOfSale === 'delivery' && state.payments.some((p) => p.method === 'paymentOnDelivery')
      ? {
          delivery: {
            onDeliveryMethod: state.onDelivery?.method ?? 'money',
            changeForCents: state.onDelivery?.method === 'money' ? state.onDelivery.changeForCents : 0,
          },
        }
      : {}),
  };
}

/**
 * The reducer with its local-storage copy (key per user). `scope` keeps another mode's cart apart
 * (the budget PDV: 'budget'); default the PDV's own.
 */
export function usePdvState(userId: number | undefined, scope = 'pdv') {
  const storageKey = `${scope}:${userId ?? 0}`;
  const [state, dispatch] = useReducer(pdvReducer, undefined, () => {
    const saved = loadPersisted<PdvState | null>(storageKey, null);
    return saved && Array.isArray(saved.items) ? { ...emptyPdv(), ...saved } : emptyPdv();
  });
  useEffect(() => {
    const empty = state.items.length === 0 && state.step !== 3 && !state.customer && !state.lastSale;
    if (empty) removePersisted(storageKey);
    else savePersisted(storageKey, state);
  }, [state, storageKey]);
  const totals = useMemo(() => pdvTotals(state), [state]);
  const stableDispatch = useCallback((action: PdvAction) => dispatch(action), []);
  return { state, dispatch: stableDispatch, totals };
}
