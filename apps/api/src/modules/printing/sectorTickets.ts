import type { KdsItem } from '@balcao/core/kds';
import type { PrintDocument } from '@balcao/core/printing';
import { and, eq, inArray, isNull } from 'drizzle-orm';
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

/**
 * Queues one ticket per sector with a printer for `lines`, in `tx`. `title` names the order
 * ("Entrega nº 12"), `heading` the lines under the sector's name.
 */
export async function queueSectorTickets(
  tx: Executor,
  actor: Actor,
  order: { key: string; title: string; heading: readonly string[]; lines: readonly SectorTicketLine[] },
): Promise<SectorTickets> {
  const categoryIds = [...new Set(order.lines.flatMap((l) => (l.categoryId === null ? [] : [l.categoryId])))];
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
  if (groups.size === 0) return { queued: [], unrouted };
  const rows = [...groups.values()].map(({ route, lines }) => ({
    clientId: actor.clientId,
    profileId: route.profileId as number,
    sectorId: route.sectorId,
    kind: 'ticket',
    payload: ticketDocument(order.title, route.name, order.heading, lines, route.columns ?? DEFAULT_COLUMNS),
    idempotencyKey: `${order.key}-${route.sectorId}`,
    items: lines.map(kdsItemOf),
    createdBy: actor.userId,
  }));
  const inserted = await tx
    .insert(printJobs)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: printJobs.id });
  return { queued: inserted.map((r) => r.id), unrouted };
}

/** After the commit: hands the queued tickets to connected stations and signals them (never awaited). */
export function deliverSectorTickets(ctx: AppContext, clientId: number, tickets: SectorTickets): void {
  if (tickets.queued.length === 0) return;
  deliverWaitingJobs(ctx, clientId)
    .then(() => {
      for (const id of tickets.queued) ctx.changed(clientId, 'print-job', id);
    })
    .catch(() => undefined);
}
