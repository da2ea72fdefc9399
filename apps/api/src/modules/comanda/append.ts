import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loaderPer, sameMomentLoader } from '../../lib/batch.ts';
import { productCategorySql } from '../product/categoryOf.ts';
import type { PricedItem } from '../product/pricing.ts';

/** One line to append: priced by the catalog, for an open tab of the client. */
type LineToAppend = {
  clientId: number;
  comandaId: number;
  priced: PricedItem;
  quantity: number;
  notes: string | null;
  addedBy: number;
  idempotencyKey: string | null;
};

/** What the statement did for one line: `tab` null when the tab is not open (or not the client's). */
type Appended = { tab: number | null; line: number | null; addedAt: string | null };

/**
 * Appends lines in ONE statement: touches their open tabs (row locks taken in id order, so two
 * statements never deadlock) and inserts the lines whose tab is open; a key already used inserts
 * nothing (ON CONFLICT DO NOTHING). The lines come in as one jsonb parameter, so a statement of 1
 * line and of 20 is the same text (parsed once per connection).
 */
async function appendStatement(db: Db, lines: readonly LineToAppend[]): Promise<Appended[]> {
  const input = lines.map((l, ord) => ({
    ord,
    client_id: l.clientId,
    comanda_id: l.comandaId,
    product_id: l.priced.productId,
    variant_id: l.priced.variantId,
    description: l.priced.description,
    variant_name: l.priced.variantName,
    sku: l.priced.sku,
    barcode: l.priced.barcode,
    unit: l.priced.unit,
    quantity: l.quantity,
    unit_price_cents: l.priced.unitPriceCents,
    additionals: l.priced.additionals,
    notes: l.notes,
    added_by: l.addedBy,
    idempotency_key: l.idempotencyKey,
  }));
  const result = await db.execute(sql`with i as (
      select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(ord int, client_id int,
        comanda_id int, product_id int, variant_id int, description text, variant_name text, sku text,
        barcode text, unit text, quantity numeric, unit_price_cents int, additionals jsonb, notes text,
        added_by int, idempotency_key text)),
    locked as (select c.id from comandas c
      where c.status = 'active' and (c.id, c.client_id) in (select comanda_id, client_id from i)
      order by c.id for update),
    t as (update comandas c set last_item_at = now(), updated_at = now()
      from locked where c.id = locked.id returning c.id, c.client_id),
    l as (insert into comanda_lines (client_id, comanda_id, product_id, variant_id, category_id, description,
        variant_name, sku, barcode, unit, quantity, unit_price_cents, additionals, notes, added_by, idempotency_key)
      select i.client_id, i.comanda_id, i.product_id, i.variant_id,
        ${productCategorySql(sql`i.client_id`, sql`i.product_id`)}, i.description, i.variant_name, i.sku,
        i.barcode, i.unit, i.quantity, i.unit_price_cents, i.additionals, i.notes, i.added_by, i.idempotency_key
      from i join t on t.id = i.comanda_id and t.client_id = i.client_id
      order by i.ord
      on conflict (client_id, idempotency_key) where idempotency_key is not null do nothing
      returning id, client_id, idempotency_key, added_at)
    select i.ord, t.id as tab, l.id as line, l.added_at::text as "addedAt"
    from i left join t on t.id = i.comanda_id and t.client_id = i.client_id
      left join l on l.client_id = i.client_id and l.idempotency_key is not distinct from i.idempotency_key
    order by i.ord`);
  const rows = (result as unknown as { rows: (Appended & { ord: number })[] }).rows;
  return lines.map((_, ord) => {
    const row = rows.find((r) => Number(r.ord) === ord);
    return {
      tab: row?.tab == null ? null : Number(row.tab),
      line: row?.line == null ? null : Number(row.line),
      addedAt: row?.addedAt ?? null,
    };
  });
}

/**
 * The adds that arrive at the same moment (20 waiters tapping at once) share one statement
 * (lib/batch.ts): on PGlite every statement runs alone in the process, so twenty statements queue
 * one behind the other, and one statement of twenty lines costs about what one of one does.
 * In the statement: every line with its own Idempotency-Key (the answer finds its line by the
 * key), at most one line without a key. A key repeated in the batch (a double tap arriving twice
 * at once) goes to a later statement, where its first line answers it. A statement that fails
 * (a line breaking a constraint) is run again line by line, so only that line's request fails.
 */
const appendLoader = loaderPer((db: Db) =>
  sameMomentLoader<LineToAppend, Appended>(async (lines) => {
    const answers: (Appended | Error)[] = new Array(lines.length);
    const batch: number[] = [];
    const later: number[] = [];
    const keys = new Set<string>();
    let keyless = false;
    lines.forEach((line, index) => {
      const key = line.idempotencyKey === null ? null : `${line.clientId}:${line.idempotencyKey}`;
      if (key === null ? keyless : keys.has(key)) later.push(index);
      else {
        if (key === null) keyless = true;
        else keys.add(key);
        batch.push(index);
      }
    });
    const alone = async (index: number) => {
      try {
        [answers[index]] = await appendStatement(db, [lines[index]]);
      } catch (error) {
        answers[index] = error as Error;
      }
    };
    try {
      const appended = await appendStatement(
        db,
        batch.map((i) => lines[i]),
      );
      batch.forEach((i, n) => {
        answers[i] = appended[n];
      });
    } catch (error) {
      if (batch.length === 1) answers[batch[0]] = error as Error;
      else for (const i of batch) await alone(i);
    }
    for (const i of later) await alone(i);
    return answers;
  }),
);

/** Appends one line to an open tab, in the statement of the adds of the same moment. */
export function appendLine(db: Db, line: LineToAppend): Promise<Appended> {
  return appendLoader(db).load(line);
}
