import { RECEIPT_COLUMNS, receiptLines } from '@balcao/core/receipt';
import type { Sale } from '@balcao/core/sale';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { clients } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { printerProfiles, printingSettings } from './schema.ts';
import { enqueuePrintJob } from './service.ts';

/**
 * What the sale module calls after a sale commits: with "print the receipt automatically" on, the
 * receipt (core's receiptLines, the text the screen shows) is queued on the chosen profile. The key
 * is the sale's, so a replayed sale never prints a second receipt. Returns the job id, or null.
 */
export async function printSaleReceipt(ctx: AppContext, actor: Actor, sale: Sale): Promise<number | null> {
  const [settings] = await ctx.db
    .select({
      autoPrint: printingSettings.autoPrintReceipt,
      profileId: printingSettings.receiptProfileId,
      paperWidth: printerProfiles.paperWidth,
      shopName: clients.name,
      shopDocument: clients.document,
      shopPhone: clients.phone,
      timeZone: clients.timeZone,
    })
    .from(printingSettings)
    .innerJoin(clients, eq(clients.id, printingSettings.clientId))
    .leftJoin(printerProfiles, eq(printerProfiles.id, printingSettings.receiptProfileId))
    .where(eq(printingSettings.clientId, actor.clientId));
  if (!settings?.autoPrint || settings.profileId === null || settings.paperWidth === null) return null;
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
  const { job } = await enqueuePrintJob(ctx, actor, {
    profileId: settings.profileId,
    kind: 'receipt',
    payload: { title: `Venda nº ${sale.number}`, lines },
    idempotencyKey: `sale-receipt-${sale.id}`,
  });
  return job.id;
}
