import { normalizeBarcode } from '@balcao/core/barcode';
import type { Coupon } from '@balcao/core/coupon';
import { couponApi } from '@balcao/core/endpoints/coupon';
import { customerApi } from '@balcao/core/endpoints/customer';
import { productApi } from '@balcao/core/endpoints/product';
import { stockApi } from '@balcao/core/endpoints/stock';
import type { OfflineCustomer } from '@balcao/core/offline';
import type { BarcodeMatch, Product, ProductListItem } from '@balcao/core/product';
import { type WeighedMatch, weighedMatchOf } from '@balcao/core/product';
import { parseScaleLabel, type ScaleLayout, scaleCodeKey } from '@balcao/core/scale/weighedLabel';
import type { StockSettings } from '@balcao/core/stock';
import { Index } from 'flexsearch';
import { call } from '../../lib/client.ts';
import { codesOf, type LocalCustomer, type LocalProduct, type OfflineDb } from './db.ts';

/**
 * The PDV's local catalog (issue 21): a copy of the shop's products in IndexedDB, brought up to date
 * by change time (GET /v1/product/changes), and searched in memory when the PDV is offline.
 *
 * Search: FlexSearch (a kept full-text index; "forward" tokenizing finds every word by its
 * prefixes, several words must all match, and a search stops at its limit) over the folded name and
 * SKU, with what a result shows (name, codes, price) in memory; the whole product is read from
 * IndexedDB when one is picked. Barcodes and SKUs: a Map code -> id in memory, then one read by primary key.
 * bench/RESULTS.md has the figures at 100,000 products and why this and not IndexedDB indexes alone.
 */

/**
 * Products a sync page asks for. 200, not 500 (issue 30): the server answers another request only
 * between a page's statements, so a scan at a new device's PDV waited behind a whole page of 500.
 */
const PAGE = 200;
/** After the PDV's last server lookup (a scan, a search), the catalog's fill waits this long. */
const QUIET_MS = 1000;
const UNTIL_KEY = 'products.until';
const CUSTOMERS_UNTIL_KEY = 'customers.until';
const COUPONS_UNTIL_KEY = 'coupons.until';
const STOCK_SETTINGS_KEY = 'stock.settings';

/** Lower case, accents removed: "Pão" finds "pao" and "PÃO". */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** What a search result shows (the PDV's result list), kept in memory for every product. */
export type SearchHit = Pick<
  ProductListItem,
  'id' | 'name' | 'sku' | 'barcode' | 'salePriceCents' | 'variantCount' | 'active' | 'stock' | 'stockControl'
>;
const hitOf = (p: Product): SearchHit => ({
  id: p.id,
  name: p.name,
  sku: p.sku,
  barcode: p.barcode,
  salePriceCents: p.salePriceCents,
  variantCount: p.variantCount,
  active: p.active,
  stock: p.stock,
  stockControl: p.stockControl,
});

/** What is searched of a product: its name and SKU, folded. */
const textOf = (p: { name: string; sku: string | null }) => fold(`${p.name} ${p.sku ?? ''}`);

/** Words split on anything but letters and digits (so "SKU-4242" is "sku" "4242"). */
const words = (text: string) =>
  fold(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export class LocalCatalog {
  private index: Index | null = null;
  private codes = new Map<string, number>();
  /** Scale codes (kept without leading zeros, as the API keeps them) -> product id (issue 36). */
  private scaleCodes = new Map<string, number>();
  private hits = new Map<number, SearchHit>();
  private loading: Promise<void> | null = null;
  private lookups = 0;
  private lastLookup = 0;

  constructor(readonly db: OfflineDb) {}

  private static newIndex() {
    // "forward": every word is found by each of its prefixes, as the operator types it; words
    // earlier in the name rank first. Text is folded here, so the encoder only splits.
    return new Index({ tokenize: 'forward', encode: words, cache: 100 });
  }

  private addToMemory(p: LocalProduct) {
    this.index?.add(p.id, textOf(p));
    this.hits.set(p.id, hitOf(p));
    for (const code of p.codes) this.codes.set(code, p.id);
    if (p.scaleCode) this.scaleCodes.set(p.scaleCode, p.id);
  }

  private removeFromMemory(id: number) {
    this.index?.remove(id);
    this.hits.delete(id);
    for (const [code, owner] of this.codes) if (owner === id) this.codes.delete(code);
    for (const [code, owner] of this.scaleCodes) if (owner === id) this.scaleCodes.delete(code);
  }

  /** Builds the in-memory index from IndexedDB once (the first offline search or scan waits for it). */
  load(): Promise<void> {
    if (!this.loading) {
      this.loading = (async () => {
        const index = LocalCatalog.newIndex();
        const codes = new Map<string, number>();
        const scaleCodes = new Map<string, number>();
        const hits = new Map<number, SearchHit>();
        await this.db.products.each((p) => {
          index.add(p.id, textOf(p));
          hits.set(p.id, hitOf(p));
          for (const code of p.codes) codes.set(code, p.id);
          if (p.scaleCode) scaleCodes.set(p.scaleCode, p.id);
        });
        this.index = index;
        this.codes = codes;
        this.scaleCodes = scaleCodes;
        this.hits = hits;
      })();
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  /** Stores products (a sync page, or a bench's fixture), keeping the memory index in step. */
  async put(products: Product[]): Promise<void> {
    const rows = products.map((p) => ({ ...p, codes: codesOf(p) }));
    await this.db.products.bulkPut(rows);
    if (this.index) {
      for (const row of rows) {
        this.removeFromMemory(row.id);
        this.addToMemory(row);
      }
    }
  }

  async remove(ids: number[]): Promise<void> {
    await this.db.products.bulkDelete(ids);
    if (this.index) for (const id of ids) this.removeFromMemory(id);
  }

  /**
   * A lookup the PDV asks the server (a scan, a search) while the copy may be filling: the fill asks
   * no page while one is in flight or for QUIET_MS after it (issue 30: the first fill of 2,012
   * products took ~15 s and every scan meanwhile ~6.5 s). Scans come first; the copy can wait.
   */
  async lookingUp<T>(work: () => Promise<T>): Promise<T> {
    this.lookups++;
    try {
      return await work();
    } finally {
      this.lookups--;
      this.lastLookup = Date.now();
    }
  }

  /** Resolves once no lookup is in flight and the last one ended QUIET_MS ago. */
  private async lookupsQuiet(): Promise<void> {
    for (;;) {
      const wait = this.lookups > 0 ? 100 : this.lastLookup + QUIET_MS - Date.now();
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /**
   * Brings the copy up to date: what changed since the last complete sync (everything the first
   * time), page by page; the mark moves only when every page is in, so a cut sync starts again.
   * Each page waits for the PDV's lookups (`lookingUp`).
   */
  async sync(): Promise<{ changed: number; deleted: number }> {
    const since = (await this.db.meta.get(UNTIL_KEY))?.value as string | undefined;
    let afterId = 0;
    let until: string | null = null;
    let changed = 0;
    let deleted = 0;
    for (;;) {
      await this.lookupsQuiet();
      const page = await call(productApi.changes, { query: { afterId, limit: PAGE, since } });
      until ??= page.until;
      await this.put(page.items);
      if (page.deletedIds.length) await this.remove(page.deletedIds);
      changed += page.items.length;
      deleted += page.deletedIds.length;
      if (page.nextAfterId === null) break;
      afterId = page.nextAfterId;
    }
    await this.db.meta.put({ key: UNTIL_KEY, value: until });
    return { changed, deleted };
  }

  /** Brings the customers' copy up to date, as `sync` does for products. */
  async syncCustomers(): Promise<void> {
    const since = (await this.db.meta.get(CUSTOMERS_UNTIL_KEY))?.value as string | undefined;
    let afterId = 0;
    let until: string | null = null;
    for (;;) {
      const page = await call(customerApi.changes, { query: { afterId, limit: 1000, since } });
      until ??= page.until;
      const seenAt = page.until;
      await this.db.customers.bulkPut(page.items.map((c) => ({ ...c, seenAt })));
      if (page.deletedIds.length) await this.db.customers.bulkDelete(page.deletedIds);
      if (page.nextAfterId === null) break;
      afterId = page.nextAfterId;
    }
    await this.db.meta.put({ key: CUSTOMERS_UNTIL_KEY, value: until });
  }

  /** Brings the coupons' copy up to date (a deleted coupon comes with its status). */
  async syncCoupons(): Promise<void> {
    const since = (await this.db.meta.get(COUPONS_UNTIL_KEY))?.value as string | undefined;
    let afterId = 0;
    let until: string | null = null;
    for (;;) {
      const page = await call(couponApi.changes, { query: { afterId, limit: 1000, since } });
      until ??= page.until;
      await this.db.coupons.bulkPut(page.items.map((c) => ({ ...c, codeKey: c.code.toUpperCase() })));
      if (page.nextAfterId === null) break;
      afterId = page.nextAfterId;
    }
    await this.db.meta.put({ key: COUPONS_UNTIL_KEY, value: until });
  }

  /** The shop's stock rule (GET /v1/stock-setting/sale), kept to check an offline sale as the server would. */
  async syncStockSettings(): Promise<void> {
    const settings = await call(stockApi.saleSettings);
    await this.db.meta.put({ key: STOCK_SETTINGS_KEY, value: settings });
  }

  /** The stock rule as last synced (none yet: stock is not checked offline, as with stock management off). */
  async stockSettings(): Promise<StockSettings | null> {
    return ((await this.db.meta.get(STOCK_SETTINGS_KEY))?.value as StockSettings | undefined) ?? null;
  }

  /**
   * Takes an offline sale's quantities from the local levels (product and variant), as the server
   * will when the sale arrives. Call inside a transaction that also queues the sale: both or neither.
   */
  async takeStock(lines: { productId: number; variantId: number | null; quantity: number }[]) {
    const changed = new Map<number, LocalProduct>();
    for (const line of lines) {
      const product = changed.get(line.productId) ?? (await this.db.products.get(line.productId));
      if (!product?.stockControl) continue;
      const round = (n: number) => Math.round(n * 1000) / 1000;
      const variants = product.variants.map((v) =>
        v.id === line.variantId ? { ...v, stock: round(v.stock - line.quantity) } : v,
      );
      changed.set(product.id, { ...product, stock: round(product.stock - line.quantity), variants });
    }
    if (changed.size > 0) await this.put([...changed.values()]);
  }

  /** A customer of the local copy (addresses, crediário figures as last seen). */
  customer(id: number): Promise<LocalCustomer | undefined> {
    return this.db.customers.get(id);
  }

  /** Keeps what the server just answered of a customer (read online) as the local copy's figures. */
  async rememberCustomer(customer: Omit<LocalCustomer, 'seenAt'>): Promise<void> {
    await this.db.customers.put({ ...customer, seenAt: new Date().toISOString() });
  }

  /** A coupon by its code (any case), as last synced. */
  async couponByCode(code: string): Promise<Coupon | undefined> {
    const found = await this.db.coupons.where('codeKey').equals(code.trim().toUpperCase()).first();
    if (!found) return undefined;
    const { codeKey: _key, ...coupon } = found;
    return coupon;
  }

  /** Active customers whose name has every typed word, or whose document or phone has the digits. */
  async searchCustomers(q: string, limit = 8): Promise<OfflineCustomer[]> {
    const terms = words(q);
    const digits = q.replace(/\D/g, '');
    const found: OfflineCustomer[] = [];
    await this.db.customers
      .filter((c) => {
        if (!c.active) return false;
        const name = words(c.name);
        if (terms.length > 0 && terms.every((t) => name.some((w) => w.startsWith(t)))) return true;
        return digits.length >= 3 && `${c.document ?? ''} ${c.phone ?? ''}`.includes(digits);
      })
      .until(() => found.length >= limit)
      .each((c) => {
        found.push(c);
      });
    return found.slice(0, limit);
  }

  /** Products whose name or SKU has words starting with every word typed (best first). */
  async search(q: string, limit = 8): Promise<SearchHit[]> {
    await this.load();
    const found: SearchHit[] = [];
    for (const id of (this.index as Index).search(q, { limit: limit * 4 }) as number[]) {
      const hit = this.hits.get(id);
      if (hit?.active) found.push(hit);
      if (found.length === limit) break;
    }
    return found;
  }

  /** A category's active products by name (the waiter PDV's category chips offline, issue 30). */
  async inCategory(categoryId: number, limit = 30): Promise<SearchHit[]> {
    const found = await this.db.products.filter((p) => p.active && p.category?.id === categoryId).toArray();
    return found
      .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'))
      .slice(0, limit)
      .map(hitOf);
  }

  /** The scanner's lookup, as GET /v1/product/barcode answers it; null when the code is unknown. */
  async byCode(code: string): Promise<BarcodeMatch | null> {
    await this.load();
    const text = code.trim();
    const id = this.codes.get(normalizeBarcode(text).toLowerCase()) ?? this.codes.get(text.toLowerCase());
    if (id === undefined) return null;
    const product = await this.db.products.get(id);
    if (!product) return null;
    const lower = text.toLowerCase();
    const barcode = normalizeBarcode(text);
    const variant =
      product.barcode === barcode || product.sku?.toLowerCase() === lower
        ? null
        : (product.variants.find((v) => v.barcode === barcode || v.sku?.toLowerCase() === lower) ?? null);
    return { product, variant };
  }

  /**
   * A weighed label read offline (issue 36): the product of its scale code in the local copy and the
   * line by the shop's scale rule, as GET /v1/product/weighed answers it online. Null when no cached
   * product has the code; throws the Portuguese reason for a misread label (check digit).
   */
  async byScaleLabel(text: string, layout: ScaleLayout): Promise<WeighedMatch | null> {
    const label = parseScaleLabel(text, layout);
    await this.load();
    const id = this.scaleCodes.get(scaleCodeKey(label.code));
    const product = id === undefined ? undefined : await this.db.products.get(id);
    return product ? weighedMatchOf(label, product, layout.rounding) : null;
  }

  get(id: number): Promise<LocalProduct | undefined> {
    return this.db.products.get(id);
  }

  count(): Promise<number> {
    return this.db.products.count();
  }
}
