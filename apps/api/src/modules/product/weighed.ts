import { type WeighedMatch, weighedMatchOf } from '@balcao/core/product';
import {
  parseScaleLabel,
  type ScaleLabelContent,
  type ScaleRounding,
  scaleCodeKey,
} from '@balcao/core/scale/weighedLabel';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { findProduct } from './find.ts';
import { products } from './schema.ts';

export const SCALE_LABELS_OFF = 'A leitura de etiquetas de balança está desligada (Configurações > Balança)';
export const noScaleProduct = (code: string) => `Nenhum produto com o código de balança ${code}`;

/**
 * GET /v1/product/weighed/:code (issue 36): a weighed label read with the shop's layout (the client's
 * row, a platform table), the product of its scale code, and the line it makes at the catalog's
 * price per kg by the scale's rule. 404 when labels are off or no product has the code; 422 for a
 * code that is not a label or whose check digit is wrong.
 */
export async function findByScaleLabel(db: Executor, actor: Actor, text: string): Promise<WeighedMatch> {
  const [layout] = await db
    .select({
      enabled: clients.scaleLabelEnabled,
      codeLength: clients.scaleCodeLength,
      content: clients.scaleLabelContent,
      rounding: clients.scaleRounding,
    })
    .from(clients)
    .where(eq(clients.id, actor.clientId));
  if (!layout?.enabled) throw notFound(SCALE_LABELS_OFF);
  const rounding = layout.rounding as ScaleRounding;
  let label: ReturnType<typeof parseScaleLabel>;
  try {
    label = parseScaleLabel(text, {
      codeLength: layout.codeLength,
      content: layout.content as ScaleLabelContent,
      rounding,
    });
  } catch (error) {
    const message = (error as Error).message;
    throw unprocessable(message, [{ path: 'code', message }]);
  }
  // Codes are kept without leading zeros: "00012" on the label is product "12".
  const [found] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.clientId, actor.clientId), eq(products.scaleCode, scaleCodeKey(label.code))))
    .limit(1);
  if (!found) throw notFound(noScaleProduct(label.code));
  return weighedMatchOf(label, await findProduct(db, actor, found.id), rounding);
}
