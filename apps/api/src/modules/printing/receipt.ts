import { RECEIPT_COLUMNS, receiptLines } from '@balcao/core/receipt';
import type { Sale } from '@balcao/core/sale';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { logoUrlOf } from '../settings/company.ts';
import { deliverWaitingJobs } from './stations.ts';

/**
 * The automatic sale receipt (printer page: "print the receipt automatically"), queued by the sale
 * module INSIDE the sale's transaction: the job row commits with the sale or not at all (a process
 * that dies after the commit leaves a pending job, which the delivery sweep hands out), and the key
 * is the sale's, so a sale never queues a second receipt. Handing it to a station happens after the
 * commit without the sale's answer waiting for it. docs/decisions.md, "The checkout's own cost".
 */

/** What the receipt needs of the printer page and the shop: null when nothing prints. */
export type ReceiptSettings = {
  profileId: number;
  paperWidth: number;
  shopName: string;
  shopDocument: string | null;
  shopPhone: string | null;
  /** The shop's zone: the receipt's date and time on its clock. */
  timeZone: string;
  /** The stored logo's key (printed as a raster image by the print agent), or null. */
  logoKey?: string | null;
};

/**
 * The receipt settings as a scalar subquery (json, null when automatic printing is off or its
 * profile was removed): the checkout's first statement reads them with the register.
 */
export function receiptSettingsSql(clientId: number): SQL {
  return sql`(select json_build_object('profileId', pp.id, 'paperWidth', pp.paper_width,
      'shopName', c.name, 'shopDocument', c.document, 'shopPhone', c.phone, 'timeZone', c.time_zone,
      'logoKey', c.logo_key)
    from printing_settings ps
    join printer_profiles pp on pp.id = ps.receipt_profile_id and pp.deleted_at is null
    join clients c on c.id = ps.client_id
    where ps.client_id = ${clientId} and ps.auto_print_receipt)`;
}

/** The receipt's print document: core's receiptLines, the text the screen shows. */
function receiptDocument(settings: ReceiptSettings, sale: Sale) {
  const width = settings.paperWidth === 58 ? 58 : 80;
  const lines = receiptLines(
    sale,
    {
      name: settings.shopName,
      document: settings.shopDocument,
      phone: settings.shopPhone || null,
      timeZone: settings.timeZone,
    },
    width,
  ).map((line) => line.slice(0, RECEIPT_COLUMNS[width]));
  const logo = logoUrlOf(settings.logoKey ?? null);
  return { title: `Venda nº ${sale.number}`, lines, ...(logo ? { logo } : {}) };
}

/**
 * Queues the sale's receipt in the caller's transaction (one statement). Returns the job id, null
 * when the key already had a job.
 */
export async function queueSaleReceipt(
  tx: Executor,
  actor: Actor,
  settings: ReceiptSettings,
  sale: Sale,
): Promise<number | null> {
  const payload = receiptDocument(settings, sale);
  const result = (await tx.execute(sql`insert into print_jobs
      (client_id, profile_id, kind, payload, idempotency_key, created_by)
    values (${actor.clientId}, ${settings.profileId}, 'receipt', ${JSON.stringify(payload)}::jsonb,
      ${`sale-receipt-${sale.id}`}, ${actor.userId})
    on conflict do nothing returning id`)) as unknown as { rows: { id: number }[] };
  const id = result.rows[0]?.id;
  return id === undefined ? null : Number(id);
}

/**
 * After the sale's commit: hands the queued receipt to a connected station and signals it. Nobody
 * waits for it; a failure leaves the job pending for the delivery sweep (deliverStalePrintJobs).
 */
export function deliverSaleReceipt(ctx: AppContext, clientId: number, jobId: number): void {
  deliverWaitingJobs(ctx, clientId)
    .then(() => ctx.changed(clientId, 'print-job', jobId))
    .catch(() => undefined);
}
