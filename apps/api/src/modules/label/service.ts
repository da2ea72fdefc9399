import {
  type LabelItem,
  labelCommands,
  labelJobLines,
  type labelPrintInputSchema,
} from '@balcao/core/labels/printerLabels';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { agentPrintsProfile } from '../printing/agents.ts';
import { enqueuePrintJob } from '../printing/service.ts';
import { findProduct } from '../product/find.ts';

export const NO_LABEL_AGENT =
  'Nenhum agente de impressão imprime neste perfil: pareie um agente para ele em Configurações > Impressoras';

/**
 * What each chosen product's label shows (issue 36): name, variant, the price that applies, and the
 * code (the variant's or the product's barcode, else its SKU, else "P<id>"), read through the
 * product module's service.
 */
export async function labelItems(
  db: Executor,
  actor: Actor,
  chosen: readonly { productId: number; variantId: number | null; copies: number }[],
): Promise<LabelItem[]> {
  const items: LabelItem[] = [];
  for (const [index, c] of chosen.entries()) {
    const product = await findProduct(db, actor, c.productId).catch(() => {
      throw unprocessable('Produto não encontrado', [
        { path: `items.${index}`, message: 'Produto não encontrado' },
      ]);
    });
    const variant = c.variantId === null ? null : product.variants.find((v) => v.id === c.variantId);
    if (c.variantId !== null && !variant)
      throw unprocessable('Variação não encontrada', [
        { path: `items.${index}`, message: 'Variação não encontrada' },
      ]);
    items.push({
      name: product.name,
      variantName: variant?.name ?? null,
      priceCents: variant?.effectivePriceCents ?? product.salePriceCents,
      code: variant?.barcode ?? variant?.sku ?? product.barcode ?? product.sku ?? `P${product.id}`,
      copies: c.copies,
    });
  }
  return items;
}

/**
 * The labels as a raw print job of the chosen profile (issue 36): core's ZPL/EPL commands, printed as
 * they are by the profile's print agent, exactly once (the job's key; the agent's journal). Without an
 * agent for the profile nothing would print them (a browser station never takes raw jobs): 409.
 */
export async function printLabels(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof labelPrintInputSchema>,
) {
  if (!(await agentPrintsProfile(ctx.db, actor.clientId, input.profileId))) throw conflict(NO_LABEL_AGENT);
  const items = await labelItems(ctx.db, actor, input.items);
  const { job } = await enqueuePrintJob(ctx, actor, {
    profileId: input.profileId,
    kind: 'label',
    payload: {
      title: 'Etiquetas',
      lines: labelJobLines(items, input.language),
      raw: labelCommands(input.language, items),
    },
    idempotencyKey: `label-${input.idempotencyKey}`,
  });
  return job;
}
