import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { unavailable, unprocessable } from '../../errors.ts';
import {
  WHATSAPP_BATCH,
  WHATSAPP_NOT_CONFIGURED,
  WHATSAPP_UNAVAILABLE,
  WhatsAppUnavailableError,
  whatsappChecker,
} from '../whatsapp/service.ts';
import { customers } from './schema.ts';

type NumberToCheck = { customerId: number; phone: string };

/**
 * Asks the WhatsApp service which customers' numbers exist and stores true/false in
 * `whatsappValid`. A result is stored only if the phone is still the one checked, and it does not
 * change the customer's `updatedAt` (a background result must not make the user's open form stale).
 * Returns the stored results, or null when there is no integration or instance to ask.
 */
async function checkCustomerNumbers(
  ctx: AppContext,
  clientId: number,
  items: NumberToCheck[],
): Promise<Map<number, boolean> | null> {
  const check = await whatsappChecker(ctx, clientId);
  if (!check) return null;
  const stored = new Map<number, boolean>();
  for (let i = 0; i < items.length; i += WHATSAPP_BATCH) {
    const chunk = items.slice(i, i + WHATSAPP_BATCH);
    const results = await check(chunk.map((c) => c.phone));
    const now = new Date();
    for (const [index, item] of chunk.entries()) {
      const exists = results[index];
      if (exists === undefined) continue;
      const updated = await ctx.db
        .update(customers)
        .set({ whatsappValid: exists, whatsappCheckedAt: now })
        .where(
          and(
            eq(customers.clientId, clientId),
            eq(customers.id, item.customerId),
            eq(customers.phone, item.phone),
          ),
        )
        .returning({ id: customers.id });
      if (updated.length > 0) stored.set(item.customerId, exists);
    }
  }
  return stored;
}

/** Runs the check after the answer was sent: saving never waits for WhatsApp, and failures are only logged. */
export function scheduleNumberCheck(
  ctx: AppContext,
  clientId: number,
  items: NumberToCheck[],
  log: FastifyBaseLogger,
): void {
  if (items.length === 0 || !ctx.config.whatsapp.baseUrl) return;
  setImmediate(() => {
    checkCustomerNumbers(ctx, clientId, items).catch((error) => {
      log.warn({ err: error }, 'WhatsApp number check failed; the result stays unknown');
    });
  });
}

/** The check of one customer on demand ("Verificar WhatsApp"): errors are answered to the user. */
export async function checkNumberNow(
  ctx: AppContext,
  clientId: number,
  item: NumberToCheck,
): Promise<boolean> {
  try {
    const stored = await checkCustomerNumbers(ctx, clientId, [item]);
    if (stored === null) throw unprocessable(WHATSAPP_NOT_CONFIGURED);
    const result = stored.get(item.customerId);
    if (result === undefined) throw unavailable(WHATSAPP_UNAVAILABLE);
    return result;
  } catch (error) {
    if (error instanceof WhatsAppUnavailableError) throw unavailable(WHATSAPP_UNAVAILABLE);
    throw error;
  }
}

/**
 * Checks every active customer whose number was never checked (saved while the shop's WhatsApp was
 * not connected: whatsappNumbers needs an open instance). The whatsapp module calls it when the
 * number connects. Answers how many results were stored (0 without an integration).
 */
export async function checkUncheckedNumbers(ctx: AppContext, clientId: number): Promise<number> {
  const rows = await ctx.db
    .select({ customerId: customers.id, phone: customers.phone })
    .from(customers)
    .where(
      and(
        eq(customers.clientId, clientId),
        eq(customers.active, true),
        isNull(customers.whatsappValid),
        isNotNull(customers.phone),
        ne(customers.phone, ''),
      ),
    )
    .limit(5000);
  const items = rows.map((r) => ({ customerId: r.customerId, phone: r.phone as string }));
  if (items.length === 0) return 0;
  return (await checkCustomerNumbers(ctx, clientId, items))?.size ?? 0;
}
