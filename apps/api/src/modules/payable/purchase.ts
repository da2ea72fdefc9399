import { entryTotalCents, type Payable, type PurchaseBill } from '@balcao/core/payable';
import type { StockEntryInputParsed } from '@balcao/core/stock';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { registerEntry } from '../stock/service.ts';
import { payableCategories } from './schema.ts';
import { insertPayables, listByIds, listCategories } from './service.ts';

/** The category a purchase's bill takes without one: the shop's first CMV/compras category. */
async function purchaseCategory(tx: Executor, actor: Actor): Promise<number> {
  await listCategories(tx, actor);
  const [row] = await tx
    .select({ id: payableCategories.id })
    .from(payableCategories)
    .where(and(eq(payableCategories.clientId, actor.clientId), eq(payableCategories.dreGroup, 'cmv')))
    .orderBy(asc(payableCategories.id))
    .limit(1);
  if (!row) throw new AppError(422, 'Crie uma categoria do grupo CMV / compras para as compras');
  return row.id;
}

/**
 * A stock entry and its bill in ONE transaction (issue 34): the stock service moves the stock and
 * updates each product's weighted average cost; in its transaction the entry's value (each line's
 * quantity x unit cost, rounded to the cent) becomes 1 to 60 payables of the supplier, described by
 * the entry's document. A refused bill (unknown supplier) leaves the stock untouched, and the reverse.
 */
export async function registerPurchase(
  db: Db,
  notify: AppContext['notify'],
  actor: Actor,
  input: { entry: StockEntryInputParsed; bill: PurchaseBill },
): Promise<{ movements: number; items: Payable[] }> {
  const total = entryTotalCents(input.entry.items);
  if (total <= 0)
    throw new AppError(422, 'A entrada não tem valor: informe o custo dos produtos para gerar a conta');
  const document = input.entry.document?.trim() || null;
  const result = await registerEntry(
    db,
    { clientId: actor.clientId, userId: actor.userId, notify },
    input.entry,
    async (tx) =>
      insertPayables(tx, actor, {
        supplierId: input.bill.supplierId,
        categoryId: input.bill.categoryId ?? (await purchaseCategory(tx, actor)),
        description: document ? `Compra - NF ${document}` : 'Compra de mercadorias',
        amountCents: total,
        dueDate: input.bill.dueDate,
        competenceMonth: null,
        documentNumber: document,
        notes: input.entry.note ?? null,
        boletoLine: null,
        installments: input.bill.installments,
        recurrence: 'none',
        occurrences: 12,
      }),
  );
  return { movements: result.movements.length, items: await listByIds(db, actor, result.extra ?? []) };
}
