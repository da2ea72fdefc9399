import { customerAddressSchema } from './customer.ts';
import { z } from './zod.ts';

/**
 * The PDV's local catalog (issue 21): each owning module answers "what changed since T" for its
 * resource, with the ids deleted since, paged by id. A till asks with `since` = the `until` of its
 * last complete sync (none: everything), then again with `afterId` = `nextAfterId` until it is null.
 */

export const changesQuerySchema = z.object({
  since: z.iso.datetime({ offset: true, message: 'Data inválida' }).optional(),
  afterId: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export type ChangesQueryParsed = z.output<typeof changesQuerySchema>;

/**
 * Changes are read with a margin before `since` (a transaction that committed after the last sync
 * may carry an earlier time): a record is sent again rather than missed.
 */
export const CHANGES_MARGIN_MS = 60_000;

export const changesOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** Ids deleted since `since` (first page only; [] without `since`). */
    deletedIds: z.array(z.number()),
    /** The server's time when this sync window was read: the next sync's `since`. */
    until: z.string(),
    /** The cursor of the next page, null on the last. */
    nextAfterId: z.number().nullable(),
  });
export type Changes<T> = { items: T[]; deletedIds: number[]; until: string; nextAfterId: number | null };

/**
 * A customer as the PDV's local copy keeps it: the customer step's search and pick, the delivery
 * step's addresses, and the crediário figures as last seen (shown, never checked: crediário is not
 * offered offline). The feed sends a customer again when it, an address or a receivable changed.
 */
export const offlineCustomerSchema = z.object({
  id: z.number(),
  name: z.string(),
  document: z.string().nullable(),
  phone: z.string().nullable(),
  active: z.boolean(),
  addresses: z.array(customerAddressSchema),
  creditLimitCents: z.number(),
  /** Pending crediário receivables, summed. */
  pendingCents: z.number(),
  isDelinquent: z.boolean(),
});
export type OfflineCustomer = z.infer<typeof offlineCustomerSchema>;
