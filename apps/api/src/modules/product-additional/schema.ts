import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';

/** An add-on group (productAdditional), e.g. "Adicionais", min 0 max 3. */
export const productAdditionalGroups = pgTable(
  'product_additional_groups',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    minQuantity: integer('min_quantity').notNull().default(0),
    maxQuantity: integer('max_quantity').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_additional_groups_client_name_uq').on(t.clientId, sql`lower(${t.name})`)],
);

export const productAdditionalItems = pgTable(
  'product_additional_items',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    groupId: integer('group_id')
      .notNull()
      .references(() => productAdditionalGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull().default(0),
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('product_additional_items_group_idx').on(t.groupId, t.position)],
);
