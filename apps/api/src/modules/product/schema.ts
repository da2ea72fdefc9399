import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';
import { productAdditionalGroups } from '../product-additional/schema.ts';
import { productBrands } from '../product-brand/schema.ts';
import { productCategories } from '../product-category/schema.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Stock levels: 3 decimals (kg). The stock issue moves them; the catalog sets initial levels. */
const quantity = (name: string) => numeric(name, { precision: 14, scale: 3, mode: 'number' });

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sku: text('sku'),
    barcode: text('barcode'),
    /** The product's code in the shop's scale (issue 36): 4-6 digits, read from weighed labels. */
    scaleCode: text('scale_code'),
    /** simple, variants, service, weighed (core PRODUCT_TYPES). */
    productType: text('product_type').notNull().default('simple'),
    unit: text('unit').notNull().default('un'),
    salePriceCents: integer('sale_price_cents').notNull(),
    costPriceCents: integer('cost_price_cents').notNull().default(0),
    categoryId: integer('category_id').references(() => productCategories.id),
    brandId: integer('brand_id').references(() => productBrands.id),
    active: boolean('active').notNull().default(true),
    stockControl: boolean('stock_control').notNull().default(true),
    stock: quantity('stock').notNull().default(0),
    minStock: quantity('min_stock').notNull().default(0),
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }),
    heightCm: numeric('height_cm', { precision: 10, scale: 2, mode: 'number' }),
    widthCm: numeric('width_cm', { precision: 10, scale: 2, mode: 'number' }),
    lengthCm: numeric('length_cm', { precision: 10, scale: 2, mode: 'number' }),
    /** Lower-case accent-free name: the sort key (same order on every engine and collation). */
    nameKey: text('name_key').notNull(),
    /** Lower-case accent-free name, SKU and barcode of the product and its variants (trigram search). */
    searchText: text('search_text').notNull(),
    /**
     * When a stock movement last moved this product's level or one of its variants' (issue 21): the
     * PDV's offline copy is fed by it (GET /v1/product/changes). Not updated_at, the edit version: a
     * sale must not make an open product form stale.
     */
    stockChangedAt: timestamp('stock_changed_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_client_sku_uq').on(t.clientId, sql`lower(${t.sku})`),
    uniqueIndex('products_client_barcode_uq').on(t.clientId, t.barcode),
    uniqueIndex('products_client_scale_code_uq').on(t.clientId, t.scaleCode),
    // (client_id, name_key, id) INCLUDE (search_text, active): products_client_name_search_idx, a
    // custom migration (drizzle has no INCLUDE). The name order of lists, and the search's walks
    // read from the index alone (modules/product/search.ts).
    index('products_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('products_client_price_idx').on(t.clientId, t.salePriceCents, t.id),
    index('products_client_category_idx').on(t.clientId, t.categoryId),
    index('products_client_brand_idx').on(t.clientId, t.brandId),
    index('products_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    /** The low-stock products (the home's count, the list's filter): few rows, counted from the index. */
    index('products_client_low_stock_idx')
      .on(t.clientId)
      .where(sql`${t.stockControl} and ${t.minStock} > 0 and ${t.stock} <= ${t.minStock}`),
  ],
);

/**
 * The words of every product's search text (issue 21): one row per distinct word of
 * `search_text`, with the product's name key, so the products holding a word come out of the
 * primary key in name order (a broad word sorted by name reads ~1,001 index rows, not the whole
 * name index up to its first match). Kept by triggers on products (custom migration
 * 0031_product_search_words_triggers): no foreign key, the delete trigger removes a product's rows
 * through the primary key (a cascade would need a second index on product_id).
 */
export const productSearchWords = pgTable(
  'product_search_words',
  {
    clientId: integer('client_id').notNull(),
    word: text('word').notNull(),
    nameKey: text('name_key').notNull(),
    productId: integer('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.word, t.nameKey, t.productId] })],
);

/**
 * The distinct words of a client's search texts (issue 21): a search term's words (those that
 * contain it) come from here through the trigram index, a handful of rows. Words are only added
 * (a word no product holds any more finds no rows in product_search_words).
 */
export const productSearchVocabulary = pgTable(
  'product_search_vocabulary',
  {
    clientId: integer('client_id').notNull(),
    word: text('word').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.word] }),
    index('product_search_vocabulary_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
  ],
);

/** Colours of a product's grid (productGridColor). */
export const productGridColors = pgTable(
  'product_grid_colors',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('product_grid_colors_product_name_uq').on(t.productId, sql`lower(${t.name})`)],
);

/** Sizes of a product's grid (productGridSize). */
export const productGridSizes = pgTable(
  'product_grid_sizes',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('product_grid_sizes_product_name_uq').on(t.productId, sql`lower(${t.name})`)],
);

/** One variant per colour x size (productGrid): own SKU, barcode, price override and stock. */
export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    colorId: integer('color_id').references(() => productGridColors.id, { onDelete: 'cascade' }),
    sizeId: integer('size_id').references(() => productGridSizes.id, { onDelete: 'cascade' }),
    sku: text('sku'),
    barcode: text('barcode'),
    /** Null: the product's sale price applies. */
    priceCents: integer('price_cents'),
    stock: quantity('stock').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('product_variants_client_sku_uq').on(t.clientId, sql`lower(${t.sku})`),
    uniqueIndex('product_variants_client_barcode_uq').on(t.clientId, t.barcode),
    uniqueIndex('product_variants_combination_uq').on(
      t.productId,
      sql`coalesce(${t.colorId}, 0)`,
      sql`coalesce(${t.sizeId}, 0)`,
    ),
  ],
);

/** Product pictures; files live in the storage under `storageKey`; position 0 is the cover. */
export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('product_images_product_idx').on(t.productId, t.position),
    uniqueIndex('product_images_key_uq').on(t.storageKey),
  ],
);

/**
 * How many products each client has, kept by statement-level triggers on products (migration
 * product_counters): the unfiltered list answers its total without counting 100,000 rows.
 */
export const productCounters = pgTable('product_counters', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  total: integer('total').notNull().default(0),
});

/** Which add-on groups a product offers, in order (edited with the product). */
export const productAdditionalLinks = pgTable(
  'product_additional_links',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => productAdditionalGroups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.groupId] }),
    index('product_additional_links_group_idx').on(t.groupId),
  ],
);

/**
 * Deleted products, for the PDV's local catalog (issue 21): `GET /v1/product/changes` answers the ids
 * deleted since a time, so a till's copy drops them. Written by deleteProduct.
 */
export const productDeletions = pgTable(
  'product_deletions',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    productId: integer('product_id').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('product_deletions_client_idx').on(t.clientId, t.deletedAt)],
);
