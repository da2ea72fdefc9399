import type { AppContext } from '../../context.ts';
import type { OutgoingDocument } from './adapter.ts';
import { campaignSender, type SendResult } from './instance.ts';

/** Why a shop message was not sent by WhatsApp (the caller falls back, e.g. to a wa.me link). */
type ShopMessageResult = SendResult | { ok: false; kind: 'not_connected'; reason: string };

/**
 * THE way another module sends one message of the shop's own (a budget's PDF, a delivery notice)
 * through its WhatsApp instance: a text, or a document with the text as caption. Answers
 * `not_connected` when the instance is not created or not open (nothing is sent). A transactional
 * message answers the customer's own order; campaigns (marketing) go through the campaign queue,
 * which also honours opt-outs. Never throws for Evolution's failures: they come back as the result.
 */
export async function sendShopMessage(
  ctx: AppContext,
  clientId: number,
  message: { number: string; text: string; document?: OutgoingDocument | null },
): Promise<ShopMessageResult> {
  const sender = await campaignSender(ctx, clientId);
  if (!sender.send || sender.state !== 'open')
    return { ok: false, kind: 'not_connected', reason: 'WhatsApp da loja não conectado' };
  return sender.send(message);
}
