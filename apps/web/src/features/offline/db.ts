import type { CashMovementInput } from '@balcao/core/cashRegister';
import type { Coupon } from '@balcao/core/coupon';
import type { OfflineCustomer } from '@balcao/core/offline';
import type { Product } from '@balcao/core/product';
import type { OfflineSaleInput } from '@balcao/core/sale';
import { Dexie, type EntityTable } from 'dexie';

/**
 * The PDV's offline store (issue 21), one IndexedDB database per shop, through Dexie (a kept
 * wrapper: schema versions, transactions across tables, compound and multi-entry indexes, and
 * liveQuery for the banner's count, without hand-written IDBRequest plumbing).
 *
 * - products: the shop's catalog as the PDV reads it (whole products: variants, prices, barcodes,
 *   add-on groups, stock), with `codes`, every barcode and lower-cased SKU of the product and its
 *   variants (a multi-entry index: a scan is one index read).
 * - customers: the customer step's copy (name, document, phone, addresses, crediário figures).
 * - outbox: sales finished without a connection, in the order they were made, until the server
 *   has them.
 * - meta: sync marks (`products.until`) and small copies the PDV needs offline.
 */

export type LocalProduct = Product & { codes: string[] };

/** A customer of the local copy, with when its figures were read from the server (`until` of that sync). */
export type LocalCustomer = OfflineCustomer & { seenAt: string };

export type OutboxSale = {
  /** Order of making: sync goes in this order. */
  seq?: number;
  /** The sale's UUID: its Idempotency-Key on the server. */
  clientSaleId: string;
  body: OfflineSaleInput;
  madeAt: string;
  finalAmountCents: number;
  /** The last refusal the server gave (422...), shown in the banner until it is solved. */
  error: string | null;
};

/** A suprimento or sangria made without a connection (sent after the sales, in order). */
export type OutboxMovement = {
  seq?: number;
  clientMovementId: string;
  body: CashMovementInput;
  madeAt: string;
  error: string | null;
};

export type Meta = { key: string; value: unknown };

export type OfflineDb = Dexie & {
  products: EntityTable<LocalProduct, 'id'>;
  customers: EntityTable<LocalCustomer, 'id'>;
  coupons: EntityTable<Coupon & { codeKey: string }, 'id'>;
  outbox: EntityTable<OutboxSale, 'seq'>;
  movements: EntityTable<OutboxMovement, 'seq'>;
  meta: EntityTable<Meta, 'key'>;
};

/** Every barcode and lower-cased SKU of a product and its variants. */
export function codesOf(p: Product): string[] {
  const codes = new Set<string>();
  const add = (code: string | null) => {
    if (code) codes.add(code.toLowerCase());
  };
  add(p.barcode);
  add(p.sku);
  for (const v of p.variants) {
    add(v.barcode);
    add(v.sku);
  }
  return [...codes];
}

const open = new Map<string, OfflineDb>();

/** The shop's database (one per client and user: two operators on one computer keep apart). */
export function offlineDb(clientId: number, userId: number): OfflineDb {
  const name = `balcao-${clientId}-${userId}`;
  let db = open.get(name);
  if (!db) {
    db = new Dexie(name) as OfflineDb;
    db.version(1).stores({
      products: 'id, *codes',
      outbox: '++seq, &clientSaleId',
      meta: 'key',
    });
    db.version(2).stores({ customers: 'id' });
    db.version(3).stores({ movements: '++seq, &clientMovementId' });
    db.version(4).stores({ coupons: 'id, codeKey' });
    // Customers now carry addresses and crediário figures: the copy is read again from the start.
    db.version(5)
      .stores({})
      .upgrade(async (tx) => {
        await tx.table('customers').clear();
        await tx.table('meta').delete('customers.until');
      });
    open.set(name, db);
  }
  return db;
}
