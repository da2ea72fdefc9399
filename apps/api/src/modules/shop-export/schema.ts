import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { clients, users } from '../../db/schema.ts';

/**
 * A shop's deletion asked by its Administrador (LGPD eliminação, issue 37): removed with every other
 * row of the shop when `due_at` comes (the `shop-deletion` job), or canceled (the row deleted) before.
 */
export const shopDeletions = pgTable('shop_deletions', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  requestedByUserId: integer('requested_by_user_id')
    .notNull()
    .references(() => users.id),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
});
