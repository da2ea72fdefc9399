import type { Audience, AudienceCounts } from '@balcao/core/campaign';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { shopTodaySql } from '../../lib/shopToday.ts';
import { type AudienceCustomer, audienceCustomers } from '../customer/audience.ts';
import { receivableFigures } from '../receivable/customerFigures.ts';
import { customerPurchases } from '../sale/customerPurchases.ts';
import { optedOutSql } from '../whatsapp/instance.ts';

/**
 * The customers an audience reaches (active, with a phone), with the flags the counters show:
 * the filters are the customer's own fields plus receivable's delinquency and sale's purchases.
 */
export async function audienceOf(
  db: Executor,
  clientId: number,
  audience: Audience,
): Promise<AudienceCustomer[]> {
  const today = shopTodaySql(clientId);
  const delinquent = (customerId: SQL) =>
    receivableFigures.overdueExists(sql`${clientId}`, customerId, today);
  return audienceCustomers(db, clientId, {
    birthMonth: audience.birthMonth,
    tags: audience.tags ?? [],
    delinquent,
    optedOut: (phone) => optedOutSql(clientId, phone),
    conditions: (customerId) => {
      const list: SQL[] = [];
      const last = customerPurchases.lastPurchaseAt(clientId, customerId);
      if (audience.boughtWithinDays)
        list.push(sql`${last} >= now() - make_interval(days => ${audience.boughtWithinDays}::int)`);
      if (audience.notBoughtForDays)
        list.push(
          sql`(${last} is null or ${last} < now() - make_interval(days => ${audience.notBoughtForDays}::int))`,
        );
      if (audience.spentAboveCents !== null)
        list.push(sql`${customerPurchases.spentCents(clientId, customerId)} > ${audience.spentAboveCents}`);
      if (audience.delinquent === 'yes') list.push(delinquent(customerId));
      if (audience.delinquent === 'no') list.push(sql`not ${delinquent(customerId)}`);
      return list;
    },
  });
}

/** The spec's counters of an audience before sending. */
export function countsOf(people: AudienceCustomer[]): AudienceCounts {
  const count = (test: (c: AudienceCustomer) => boolean) => people.filter(test).length;
  return {
    total: people.length,
    delinquent: count((c) => c.delinquent),
    notDelinquent: count((c) => !c.delinquent),
    validWhatsapp: count((c) => c.whatsappValid === true),
    invalidWhatsapp: count((c) => c.whatsappValid === false),
    uncheckedWhatsapp: count((c) => c.whatsappValid === null),
    optedOut: count((c) => c.optedOut),
  };
}
