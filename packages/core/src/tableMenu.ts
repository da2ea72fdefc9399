import { comandaLineInputSchema } from './comanda.ts';
import { z } from './zod.ts';

/**
 * The QR-code menu at the table (issue 35): a public page per table (no login) where the customer
 * orders; the order waits for a waiter's approval and then goes to the table's comanda and the kitchen.
 */
export const TABLE_MENU_MESSAGES = {
  notFound: 'Este QR Code não é mais válido. Peça ao garçom o QR Code atual da mesa.',
  closed: 'A loja está fechada agora: pedidos pela mesa só no horário de funcionamento.',
  /** The shop has comandas off (saleCommand): the table cannot take orders. */
  noComandas: 'Esta loja não recebe pedidos pela mesa no momento. Chame o garçom para fazer o seu pedido.',
  tooMany: 'Muitos pedidos desta mesa em pouco tempo. Aguarde alguns minutos ou chame o garçom.',
  orderNotFound: 'Pedido da mesa não encontrado',
  noQrYet: (table: string) => `A mesa ${table} ainda não tem QR Code: peça a um gerente para gerá-lo`,
  alreadyDecided: 'Este pedido da mesa já foi recusado',
  /** A line for a product the table's menu does not offer (sold by weight, by variant, out of stock...). */
  notOnMenu: 'Um dos itens não está mais no cardápio da mesa. Atualize a página e monte o pedido de novo.',
  called: { waiter: 'Mesa {table} chamou o garçom', bill: 'Mesa {table} pediu a conta' },
} as const;

export const tableTokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, TABLE_MENU_MESSAGES.notFound),
});

/** POST /v1/comanda/table-qr: the table's QR (a new one refuses the old). */
export const tableQrInputSchema = z.object({
  tableLabel: z.string().trim().min(1, 'Informe a mesa').max(20, 'Mesa: até 20 caracteres'),
});
export const tableQrSchema = z.object({ tableLabel: z.string(), token: z.string(), path: z.string() });

/** An add-on group the customer picks from (only active groups and items): min..max items. */
export const tableMenuAddOnGroupSchema = z.object({
  id: z.number(),
  name: z.string(),
  minQuantity: z.number(),
  maxQuantity: z.number(),
  items: z.array(z.object({ id: z.number(), name: z.string(), priceCents: z.number() })),
});
export type TableMenuAddOnGroup = z.infer<typeof tableMenuAddOnGroupSchema>;

export const tableMenuProductSchema = z.object({
  id: z.number(),
  name: z.string(),
  priceCents: z.number(),
  category: z.string().nullable(),
  imageUrl: z.string().nullable(),
  additionalGroups: z.array(tableMenuAddOnGroupSchema),
});
export type TableMenuProduct = z.infer<typeof tableMenuProductSchema>;

/** GET /v1/public/table/:token: the shop's name, the table, open or not, what can be ordered. */
export const tableMenuSchema = z.object({
  shop: z.string(),
  tableLabel: z.string(),
  open: z.boolean(),
  /** Why the table takes no orders now (closed, comandas off); null while it does. */
  closedMessage: z.string().nullable(),
  /**
   * The shop's hours now (issue 35), null when it does not use opening hours: open or not, and when
   * that changes next (null: not within the coming week), in the shop's time zone.
   */
  hours: z.object({ open: z.boolean(), nextChange: z.string().nullable(), timeZone: z.string() }).nullable(),
  products: z.array(tableMenuProductSchema),
});
export type TableMenu = z.infer<typeof tableMenuSchema>;

export const tableOrderInputSchema = z.object({
  lines: z
    .array(comandaLineInputSchema)
    .min(1, 'Escolha ao menos um item')
    .max(20, 'No máximo 20 itens por pedido'),
});
export type TableOrderInput = z.input<typeof tableOrderInputSchema>;

export const TABLE_ORDER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const tableOrderSchema = z.object({
  id: z.number(),
  tableLabel: z.string(),
  status: z.enum(TABLE_ORDER_STATUSES),
  lines: z.array(
    z.object({
      description: z.string(),
      quantity: z.number(),
      /** The add-ons' names (issue 35). */
      additionals: z.array(z.string()),
      notes: z.string().nullable(),
    }),
  ),
  comandaId: z.number().nullable(),
  createdAt: z.string(),
});
export type TableOrder = z.infer<typeof tableOrderSchema>;

export const tableCallInputSchema = z.object({ kind: z.enum(['waiter', 'bill']) });

/** At most this many table cards in one PDF. */
export const TABLE_QR_PDF_MAX = 100;

/**
 * "1-10, 12, Varanda": the tables a text names, in order, each once (a range of numbers a-b expands;
 * any other piece is one table's label). null when a piece is empty, too long or the list too big.
 */
export function parseTableList(text: string): string[] | null {
  const labels: string[] = [];
  for (const raw of text.split(/[,;\n]/)) {
    const piece = raw.trim();
    if (!piece) continue;
    const range = /^(\d{1,4})\s*-\s*(\d{1,4})$/.exec(piece);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (to < from || to - from >= TABLE_QR_PDF_MAX) return null;
      for (let n = from; n <= to; n++) labels.push(String(n));
    } else if (piece.length > 20) {
      return null;
    } else {
      labels.push(piece);
    }
  }
  const unique = [...new Set(labels)];
  return unique.length > 0 && unique.length <= TABLE_QR_PDF_MAX ? unique : null;
}

export const TABLE_QR_LIST_MESSAGE = `Informe as mesas, por exemplo 1-10, 12 (até ${TABLE_QR_PDF_MAX} mesas, até 20 caracteres cada)`;

/** GET /v1/comanda/table-qr/pdf?tables=1-10,12: one card per table with its number and QR code. */
export const tableQrPdfQuerySchema = z.object({
  tables: z
    .string({ message: TABLE_QR_LIST_MESSAGE })
    .max(2000, TABLE_QR_LIST_MESSAGE)
    .transform((text, ctx) => {
      const labels = parseTableList(text);
      if (!labels) {
        ctx.addIssue({ code: 'custom', message: TABLE_QR_LIST_MESSAGE });
        return z.NEVER;
      }
      return labels;
    }),
});
