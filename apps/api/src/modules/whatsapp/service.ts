import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { whatsappInstances } from '../../db/schema.ts';
import { evolutionApi, resultFor } from './adapter.ts';

export { WhatsAppUnavailableError } from './adapter.ts';

export const WHATSAPP_NOT_CONFIGURED =
  'A integração com o WhatsApp não está configurada. Configure-a em Configurações > WhatsApp.';
export const WHATSAPP_UNAVAILABLE =
  'Não foi possível verificar o número no WhatsApp agora. Tente novamente mais tarde.';

/** Numbers asked of the WhatsApp service at once. */
export const WHATSAPP_BATCH = 50;

/** Answers, per number asked (same order), whether it has WhatsApp; undefined when not answered. */
type WhatsAppChecker = (numbers: string[]) => Promise<(boolean | undefined)[]>;

/**
 * The client's WhatsApp number check (Evolution API with the client's instance), or null when there
 * is no integration or instance to ask. The checker throws WhatsAppUnavailableError when the service
 * does not answer. It stores nothing: the caller owns the rows the results go to.
 */
export async function whatsappChecker(ctx: AppContext, clientId: number): Promise<WhatsAppChecker | null> {
  const gateway = evolutionApi(ctx.config.whatsapp);
  if (!gateway) return null;
  const [instance] = await ctx.db
    .select({ name: whatsappInstances.instanceName })
    .from(whatsappInstances)
    .where(eq(whatsappInstances.clientId, clientId));
  if (!instance) return null;
  return async (numbers) => {
    const results = await gateway.checkNumbers(instance.name, numbers);
    return numbers.map((number) => resultFor(results, number)?.exists);
  };
}
