import type { Comanda, ComandaLine } from '@balcao/core/comanda';

/** A tab for the comanda feature's tests: one sent line (Suco x 2), 10% service fee, nothing paid. */
export const AT = '2026-11-27T12:00:00.000Z';
export const ANA = { id: 5, name: 'Ana' };

export const LINE: ComandaLine = {
  id: 10,
  productId: 3,
  variantId: null,
  description: 'Suco',
  variantName: null,
  unit: 'UN',
  quantity: 2,
  unitPriceCents: 800,
  additionals: [],
  notes: null,
  totalCents: 1600,
  paidQuantity: 0,
  status: 'active',
  sentAt: AT,
  sendId: 1,
  addedBy: ANA,
  addedAt: AT,
  cancelReason: null,
};

export const TAB: Comanda = {
  id: 1,
  number: 7,
  status: 'active',
  stage: 'open',
  tableLabel: '4',
  customer: null,
  customerName: null,
  customerPhone: null,
  people: 2,
  waiter: ANA,
  openedAt: AT,
  lastItemAt: AT,
  updatedAt: AT,
  serviceFeeReason: null,
  couvertPerPersonCents: 0,
  saleId: null,
  lines: [LINE],
  payments: [],
  sends: [],
  events: [],
  totals: {
    itemsCents: 1600,
    serviceFeePercent: 1000,
    serviceFeeCents: 160,
    couvertCents: 0,
    totalCents: 1760,
    paidCents: 0,
    remainingCents: 1760,
  },
};
