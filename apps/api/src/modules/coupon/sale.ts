import { type SQL, sql } from 'drizzle-orm';

/**
 * The use of a coupon without use limits, as a statement for the sale's last CTE (`useCoupon`
 * locks and re-checks a coupon with limits; one without needs neither, so its use rides along with
 * the statement that numbers the sale: no round trip of its own).
 */
export function couponUseSql(use: {
  couponId: number;
  clientId: number;
  saleId: number;
  customerId: number | null;
  discountCents: number;
}): SQL {
  return sql`insert into coupon_uses (coupon_id, client_id, sale_id, customer_id, discount_cents)
    values (${use.couponId}, ${use.clientId}, ${use.saleId}, ${use.customerId}, ${use.discountCents})`;
}
