import { makeCouponInputSchema } from '@balcao/core/coupon';
import { addDays } from '@balcao/core/date';
import type { Db } from '../../db/client.ts';
import { adminOf } from '../../lib/actor.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { createCoupon } from './service.ts';

/** Demo coupons of the demo shop (seed.ts SEED_STEPS): one of each kind the PDV will meet. */
export async function seedCoupons(db: Db, clientId: number): Promise<void> {
  const actor = await adminOf(db, clientId);
  const today = await shopToday(db, clientId);
  const demo = [
    // 10% for everybody, once per customer.
    { code: 'BEMVINDO10', discountType: 'PERCENTAGE', discountValue: 10, maxUsesPerUser: 1 },
    // R$ 5,00 off purchases from R$ 30,00.
    { code: 'DESCONTO5', discountType: 'FIXED_AMOUNT', discountValue: 5, minSaleAmount: 30 },
    // 20% that a single sale can use.
    { code: 'VIP20', discountType: 'PERCENTAGE', discountValue: 20, isSingleUse: true },
  ];
  for (const coupon of demo) {
    const input = makeCouponInputSchema({ today: () => today }).parse({
      ...coupon,
      startDate: today,
      endDate: addDays(today, 365),
    });
    await createCoupon(db, actor, input);
  }
}
