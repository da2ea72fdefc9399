import type { KdsItem } from '@balcao/core/kds';
import type { PrintDocument } from '@balcao/core/printing';
import { and, eq, inArray, isNull, like, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { categorySectors, printerProfiles, printJobs, printSectors } from './schema.ts';
import { deliverWaitingJobs } from './stations.ts';

/**
 * Production tickets of an order that is not a comanda (issue 30 item 3): a delivery order or a
 * food shop's counter pickup. Its lines are routed to the sectors of their categories, the way a
 * comanda's send is, and queued in the CALLER's transaction (they commit with the sale or not at
 * all). The keys are `${key}-${sectorId}`: queued again (a retry, "Preparar" on the panel), a
 * sector that already has its ticket prints nothing more.
 */

export type SectorTicketLine = {
  categoryId: number | null;
  quantity: number;
  description: string;
  variantName: string | null;
  additionals: readonly { name: string; quantity: number }[];
  notes: string | null;
};

export type SectorTickets = {
  /** The jobs queued now (empty when every sector already had its ticket). */
  queued: number[];
  /** Lines no sector with a printer takes ("2 x Refrigerante"). */
  unrouted: string[];
};

const DEFAULT_COLUMNS = 32;

/** Text cut into lines of the printer's columns (words kept whole when they fit, its indent kept). */
function wrap(text: string, columns: number, indent = ''): string[] {
  const out: string[] = [];
  const lead = /^ */.exec(text)?.[0] ?? '';
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = current ? `${current} ${word}` : word;
    if (next.length <= columns) current = next;
    else {
      if (current) out.push(current);
      current = `${indent}${word}`.slice(0, columns);
    }
  }
  if (current) out.push(current);
  if (out.length > 0) out[0] = `${lead}${out[0]}`.slice(0, columns);
  return out.length ? out : [''];
}

/** One sector's ticket: blank top for the clamp, the sector, the order's heading lines, then its lines. */
function ticketDocument(
  title: string,
  sectorName: string,
  heading: readonly string[],
  lines: readonly SectorTicketLine[],
  columns: number,
): PrintDocument {
  const rule = '-'.repeat(columns);
  const out = ['', sectorName.toUpperCase(), ...heading.flatMap((h) => wrap(h, columns)), rule];
  for (const l of lines) {
    out.push(
      ...wrap(`${l.quantity} x ${l.description}${l.variantName ? ` (${l.variantName})` : ''}`, columns, '  '),
    );
    for (const a of l.additionals)
      out.push(...wrap(`  + ${a.quantity > 1 ? `${a.quantity} ` : ''}${a.name}`, columns, '    '));
    if (l.notes) out.push(...wrap(`  OBS: ${l.notes}`, columns, '    '));
  }
  out.push(rule);
  return { title: `${sectorName} - ${title}`.slice(0, 120), lines: out.map((l) => l.slice(0, 200)) };
}

/** A ticket line as the kitchen display shows it (issue 35). */
export function kdsItemOf(l: Omit<SectorTicketLine, 'categoryId'>): KdsItem {
  return {
    quantity: l.quantity,
    description: l.description,
    variantName: l.variantName,
    additionals: l.additionals.map((a) => ({ name: a.name, quantity: a.quantity })),
    notes: l.notes,
  };
}

type SectorOrder = {
  key: string;
  title: string;
  heading: readonly string[];
  lines: readonly SectorTicketLine[];
};

/**
 * Queues one ticket per sector with a printer for `lines`, in `tx`. `title` names the order
 * ("Entrega nº 12"), `heading` the lines under the sector's name.
 */
export async function queueSectorTickets(
  tx: Executor,
  actor: Actor,
  order: SectorOrder,
): Promise<SectorTickets> {
  const [tickets] = await queueSectorTicketsOfOrders(tx, actor, [order]);
  return tickets;
}

/**
 * The tickets of several orders in two statements (the sectors of their categories read once, every
 * job inserted by one INSERT): a marketplace polling's batch (issue 35). One answer per order, in order.
 */
export async function queueSectorTicketsOfOrders(
  tx: Executor,
  actor: Actor,
  orders: readonly SectorOrder[],
): Promise<SectorTickets[]> {
  const categoryIds = [
    ...new Set(orders.flatMap((o) => o.lines.flatMap((l) => (l.categoryId === null ? [] : [l.categoryId])))),
  ];
  const routes =
    categoryIds.length === 0
      ? []
      : await tx
          .select({
            categoryId: categorySectors.categoryId,
            sectorId: printSectors.id,
            name: printSectors.name,
            profileId: printerProfiles.id,
            columns: printerProfiles.columns,
          })
          .from(categorySectors)
          .innerJoin(
            printSectors,
            and(eq(printSectors.id, categorySectors.sectorId), isNull(printSectors.deletedAt)),
          )
          .leftJoin(
            printerProfiles,
            and(eq(printerProfiles.id, printSectors.profileId), isNull(printerProfiles.deletedAt)),
          )
          .where(
            and(
              eq(categorySectors.clientId, actor.clientId),
              inArray(categorySectors.categoryId, categoryIds),
            ),
          );
  const routeOf = new Map(routes.map((r) => [r.categoryId, r]));
  const out: SectorTickets[] = [];
  const rows: (typeof printJobs.$inferInsert)[] = [];
  /** Which order each inserted key belongs to. */
  const orderOfKey = new Map<string, number>();
  for (const [n, order] of orders.entries()) {
    const groups = new Map<number, { route: (typeof routes)[number]; lines: SectorTicketLine[] }>();
    const unrouted: string[] = [];
    for (const l of order.lines) {
      const route = l.categoryId === null ? undefined : routeOf.get(l.categoryId);
      if (!route || route.profileId === null) {
        unrouted.push(`${l.quantity} x ${l.description}`);
        continue;
      }
      const group = groups.get(route.sectorId) ?? { route, lines: [] };
      group.lines.push(l);
      groups.set(route.sectorId, group);
    }
    out.push({ queued: [], unrouted });
    for (const { route, lines } of groups.values()) {
      const idempotencyKey = `${order.key}-${route.sectorId}`;
      orderOfKey.set(idempotencyKey, n);
      rows.push({
        clientId: actor.clientId,
        profileId: route.profileId as number,
        sectorId: route.sectorId,
        kind: 'ticket',
        payload: ticketDocument(
          order.title,
          route.name,
          order.heading,
          lines,
          route.columns ?? DEFAULT_COLUMNS,
        ),
        idempotencyKey,
        items: lines.map(kdsItemOf),
        createdBy: actor.userId,
      });
    }
  }
  if (rows.length === 0) return out;
  const inserted = await tx
    .insert(printJobs)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: printJobs.id, key: printJobs.idempotencyKey });
  for (const r of inserted) out[orderOfKey.get(r.key) as number].queued.push(r.id);
  return out;
}

/** A category's production sector with its printer (profileId null: the sector has none). */
export type SectorRoute = {
  categoryId: number;
  sectorId: number;
  name: string;
  profileId: number | null;
  columns: number | null;
};

/**
 * For another module's single statement (a comanda's send, issue 35): a json array of the routes
 * (SectorRoute) of the categories `categoryIds` (an SQL list or subquery) of the shop.
 */
export function sectorRoutesJsonSql(clientId: number, categoryIds: SQL): SQL {
  return sql`(select coalesce(json_agg(json_build_object(
      'categoryId', cs.category_id, 'sectorId', ps.id, 'name', ps.name,
      'profileId', pp.id, 'columns', pp.columns)), '[]'::json)
    from ${categorySectors} cs
    join ${printSectors} ps on ps.id = cs.sector_id and ps.deleted_at is null
    left join ${printerProfiles} pp on pp.id = ps.profile_id and pp.deleted_at is null
    where cs.client_id = ${clientId} and cs.category_id in ${categoryIds})`;
}

/** A production ticket to insert with `ticketJobsInsertSql`. */
export type TicketJob = {
  clientId: number;
  profileId: number;
  sectorId: number;
  payload: PrintDocument;
  idempotencyKey: string;
  items: KdsItem[];
  createdBy: number;
};

/**
 * For another module's single statement (a CTE): the INSERT of production tickets, once per key
 * (`on conflict do nothing`), returning their ids. `jobs` must not be empty.
 */
export function ticketJobsInsertSql(jobs: readonly TicketJob[]): SQL {
  const values = jobs.map(
    (j) =>
      sql`(${j.clientId}, ${j.profileId}, ${j.sectorId}, 'ticket', ${JSON.stringify(j.payload)}::jsonb, ${j.idempotencyKey}, ${JSON.stringify(j.items)}::jsonb, ${j.createdBy})`,
  );
  return sql`insert into ${printJobs} (client_id, profile_id, sector_id, kind, payload, idempotency_key, items, created_by)
    values ${sql.join(values, sql`, `)}
    on conflict do nothing
    returning id`;
}

/**
 * The tickets queued under `fromKey` (`{fromKey}-{sectorId}`) take the key `{toKey}-{sectorId}`, in
 * `tx`: a marketplace order's tickets, written before its sale, become the sale's, so the sale's
 * production (and "Preparar" on the panel later) finds them and prints nothing more (issue 35).
 */
export async function adoptSectorTickets(
  tx: Executor,
  clientId: number,
  fromKey: string,
  toKey: string,
): Promise<number> {
  const moved = await tx
    .update(printJobs)
    .set({
      idempotencyKey: sql`${toKey} || substr(${printJobs.idempotencyKey}, ${fromKey.length + 1})`,
    })
    .where(
      and(
        eq(printJobs.clientId, clientId),
        eq(printJobs.kind, 'ticket'),
        isNull(printJobs.reprintOf),
        like(printJobs.idempotencyKey, `${fromKey}-%`),
      ),
    )
    .returning({ id: printJobs.id });
  return moved.length;
}

/** The key of the cancel ticket of a production ticket (the KDS shows it as a cancellation). */
export const CANCEL_TICKET_PREFIX = 'cancel-';

/**
 * An order canceled after its tickets went to production: one cancel ticket per ticket of the orders
 * keyed `{key}-{sectorId}` for each of `keys` ("*** CANCELAMENTO ***" over the same lines), once
 * (its key is the ticket's with the prefix), in one statement. Answers the jobs queued now.
 */
export async function cancelSectorTickets(
  db: Executor,
  actor: Actor,
  keys: readonly string[],
): Promise<SectorTickets> {
  if (keys.length === 0) return { queued: [], unrouted: [] };
  const banner = JSON.stringify(['', '*** CANCELAMENTO ***']);
  const result = (await db.execute(sql`
    insert into ${printJobs} (client_id, profile_id, sector_id, kind, payload, idempotency_key, items, created_by)
    select client_id, profile_id, sector_id, 'ticket',
      jsonb_build_object('title', left('CANCELAMENTO ' || (payload->>'title'), 120),
        'lines', ${banner}::jsonb || (payload->'lines')),
      ${CANCEL_TICKET_PREFIX} || idempotency_key, items, ${actor.userId}
    from ${printJobs}
    where client_id = ${actor.clientId} and kind = 'ticket' and reprint_of is null
      and (${sql.join(
        keys.map((k) => sql`idempotency_key like ${`${k}-%`}`),
        sql` or `,
      )})
    on conflict do nothing
    returning id`)) as unknown as { rows: { id: number }[] };
  return { queued: result.rows.map((r) => Number(r.id)), unrouted: [] };
}

/**
 * After the commit: hands the queued tickets to connected stations and signals them (never awaited).
 * `signalFirst`: the screens are signaled before the hand-out (a kitchen display shows the card without
 * waiting for the printers' pass, issue 35).
 */
export function deliverSectorTickets(
  ctx: AppContext,
  clientId: number,
  tickets: SectorTickets,
  options: { signalFirst?: boolean } = {},
): void {
  if (tickets.queued.length === 0) return;
  const signal = () => {
    for (const id of tickets.queued) ctx.changed(clientId, 'print-job', id);
  };
  if (options.signalFirst) signal();
  deliverWaitingJobs(ctx, clientId)
    .then(() => {
      if (!options.signalFirst) signal();
    })
    .catch(() => undefined);
}
