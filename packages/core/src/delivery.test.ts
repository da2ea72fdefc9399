import { describe, expect, it } from 'vitest';
import { changeToCarry, defaultDeliveryCode, deliveryOnSaleSchema, latenessOf } from './delivery.ts';

describe('delivery rules', () => {
  it('the default code is the last 4 digits of the phone', () => {
    expect(defaultDeliveryCode('(11) 98765-4321')).toBe('4321');
    expect(defaultDeliveryCode('5511987651234')).toBe('1234');
    expect(defaultDeliveryCode('123')).toBeNull();
    expect(defaultDeliveryCode(null)).toBeNull();
  });

  it('colours by lateness against the promised time: on time, the last 10 minutes, late', () => {
    const now = new Date('2026-11-22T20:00:00Z');
    expect(latenessOf('2026-11-22T20:30:00Z', now)).toBe('onTime');
    expect(latenessOf('2026-11-22T20:10:00Z', now)).toBe('attention');
    expect(latenessOf('2026-11-22T19:59:59Z', now)).toBe('late');
  });

  it('the change to carry is the note minus the amount, only for money', () => {
    expect(changeToCarry({ onDeliveryMethod: 'money', collectCents: 4500, changeForCents: 10000 })).toBe(
      5500,
    );
    expect(changeToCarry({ onDeliveryMethod: 'money', collectCents: 4500, changeForCents: 0 })).toBe(0);
    expect(changeToCarry({ onDeliveryMethod: 'pix', collectCents: 4500, changeForCents: 10000 })).toBe(0);
  });

  it('the sale input part defaults to no method and no change', () => {
    expect(deliveryOnSaleSchema.parse({})).toEqual({ onDeliveryMethod: null, changeForCents: 0 });
    expect(deliveryOnSaleSchema.safeParse({ onDeliveryMethod: 'cheque' }).success).toBe(false);
  });
});
