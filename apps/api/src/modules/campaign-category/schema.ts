import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';

/** Campaign categories of a client; the name is unique per client, ignoring case. */
export const campaignCategories = pgTable(
  'campaign_categories',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_categories_client_name_uq').on(t.clientId, sql`lower(${t.name})`),
    index('campaign_categories_client_idx').on(t.clientId),
  ],
);
