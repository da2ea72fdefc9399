import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from '../../db/schema.ts';

/**
 * Numbers that asked not to be messaged (a "SAIR"/"PARAR" reply or staff marking): every campaign
 * skips them, also one already under way. One row per client and number (55 + DDD + number).
 */
export const whatsappOptOuts = pgTable(
  'whatsapp_opt_outs',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    phone: text('phone').notNull(),
    /** reply | staff */
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_opt_outs_client_phone_uq').on(t.clientId, t.phone),
    index('whatsapp_opt_outs_client_idx').on(t.clientId),
  ],
);
