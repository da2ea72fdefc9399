import { type SQL, sql } from 'drizzle-orm';

/**
 * The shop's service night (issue 30, docs/decisions.md "Comanda numbers are not reused in one
 * night"): a service day runs from 06:00 to 06:00 on the shop's clock, so a night that goes past
 * midnight stays one night. Tab numbers are not given twice in it and the garçom's home counts it.
 */
const NIGHT_STARTS_AT_HOUR = 6;

/** The instant the current service night began, in the client's time zone (one scalar subquery). */
export const nightStartSql = (clientId: number): SQL =>
  sql`(select (date_trunc('day', (now() at time zone c.time_zone) - make_interval(hours => ${NIGHT_STARTS_AT_HOUR}))
      + make_interval(hours => ${NIGHT_STARTS_AT_HOUR})) at time zone c.time_zone
    from clients c where c.id = ${clientId})`;
