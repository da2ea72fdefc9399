import {
  entryTotalCents,
  NFE_IMPORT_MESSAGES,
  type NfeImported,
  type Payable,
  type PurchaseBill,
} from '@balcao/core/payable';
import type { StockEntryInputParsed } from '@balcao/core/stock';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { mapUnique } from '../../lib/pg.ts';
import { registerEntry } from '../stock/service.ts';
import { billsOf, checkedNfe, type NfeBill } from './nfe.ts';
import { payableCategories, payableSeries, payables, suppliers } from './schema.ts';
import { assertPayableRefs, insertPayables, listByIds, listCategories } from './service.ts';

/** The category a purchase's bill takes without one: the shop's first CMV/compras category. */
async function purchaseCategory(tx: Executor, actor: Actor): Promise<number> {
  await listCategories(tx, actor);
  const [row] = await tx
    .select({ id: payableCategories.id })
    .from(payableCategories)
    .where(
      and(
        eq(payableCategories.clientId, actor.clientId),
        eq(payableCategories.dreGroup, 'cmv'),
        isNull(payableCategories.archivedAt),
      ),
    )
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

/**
 * A supplier's NF-e as its bills (issue 34), in one transaction: the supplier found by the issuer's
 * CNPJ/CPF or created with the note's name, phone and e-mail; each duplicata a payable due on its
 * date (a series of instalments marked with the note's access key, so the same note imports once:
 * 409), competence the note's month, category the one given or the shop's CMV/compras. The note is
 * checked (schema, recipient) before anything is written (checkedNfe).
 */
export async function importNfe(
  db: Db,
  actor: Actor,
  xml: string,
  categoryId: number | undefined,
): Promise<NfeImported> {
  const nfe = await checkedNfe(db, actor, xml);
  const bills = billsOf(nfe);
  const result = await db.transaction(async (tx) => {
    const supplier = await supplierOfNfe(tx, actor, nfe);
    const ids = await insertNfeBills(tx, actor, nfe, bills, supplier, categoryId);
    return { supplier, ids };
  });
  return {
    supplier: result.supplier,
    number: nfe.number,
    totalCents: bills.reduce((s, b) => s + b.amountCents, 0),
    items: await listByIds(db, actor, result.ids),
  };
}

/** The issuer of a note as the shop's supplier: found by CNPJ/CPF or created with the note's data. */
export async function supplierOfNfe(tx: Executor, actor: Actor, nfe: NfeBill) {
  const [found] = await tx
    .select({ id: suppliers.id, name: suppliers.name })
    .from(suppliers)
    .where(and(eq(suppliers.clientId, actor.clientId), eq(suppliers.document, nfe.issuer.document)));
  if (found) return { ...found, created: false };
  const [made] = await tx
    .insert(suppliers)
    .values({
      clientId: actor.clientId,
      name: nfe.issuer.name,
      document: nfe.issuer.document,
      phone: nfe.issuer.phone?.slice(0, 30) ?? null,
      email: nfe.issuer.email?.slice(0, 200) ?? null,
    })
    .returning({ id: suppliers.id, name: suppliers.name });
  return { ...made, created: true };
}

/**
 * The note's bills as one series of instalments marked with its access key (the unique index makes
 * the second import of the same note a 409), in the caller's transaction. Returns the payables' ids.
 */
export async function insertNfeBills(
  tx: Executor,
  actor: Actor,
  nfe: NfeBill,
  bills: { number: string; dueDate: string; amountCents: number }[],
  supplier: { id: number; name: string },
  categoryId: number | undefined,
): Promise<number[]> {
  const category = categoryId ?? (await purchaseCategory(tx, actor));
  const [series] = await mapUnique(
    () =>
      tx
        .insert(payableSeries)
        .values({ clientId: actor.clientId, kind: 'installments', count: bills.length, nfeKey: nfe.key })
        .returning({ id: payableSeries.id }),
    { payable_series_client_nfe_uq: NFE_IMPORT_MESSAGES.alreadyImported(nfe.number) },
  );
  // Checks the category is the shop's (and the supplier, found or made here).
  await assertPayableRefs(tx, actor, { categoryId: category, supplierId: supplier.id });
  const competenceMonth = `${nfe.issuedOn.slice(0, 7)}-01`;
  const inserted = await tx
    .insert(payables)
    .values(
      bills.map((bill, i) => ({
        clientId: actor.clientId,
        supplierId: supplier.id,
        categoryId: category,
        description: `NF-e ${nfe.number} - ${supplier.name}`.slice(0, 200),
        amountCents: bill.amountCents,
        dueDate: bill.dueDate,
        competenceMonth,
        documentNumber: bills.length > 1 ? `${nfe.number}/${bill.number}`.slice(0, 60) : nfe.number,
        notes: `Chave de acesso ${nfe.key}`,
        seriesId: series.id,
        seriesIndex: i + 1,
      })),
    )
    .returning({ id: payables.id });
  return inserted.map((r) => r.id);
}
