import { isValidGtin } from '../barcode.ts';
import { formatCents } from '../money.ts';
import { z } from '../zod.ts';

/**
 * Price and barcode labels for the shelf and clothing tags (issue 36): the commands of the common
 * thermal label printers, ZPL II (Zebra, Elgin L42, Argox in ZPL mode) and EPL2 (Zebra LP/TLP 2844,
 * Argox, Elgin L42 in EPL mode). Other languages (Argox PPLA/PPLB, TSPL of TSC) are not generated:
 * those printers print from the A4 sheet PDF or switch to ZPL/EPL emulation. Pure text, sent raw
 * to the printer by the print agent (a raw job) or saved as a file.
 */

export const LABEL_LANGUAGES = ['zpl', 'epl'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** One product's label: what it shows, and how many copies. */
export const labelItemSchema = z.object({
  name: z.string().min(1),
  variantName: z.string().nullable(),
  priceCents: z.number().int().nonnegative(),
  /** The product's or variant's barcode (EAN-13 when valid), else its SKU or id as Code 128. */
  code: z.string().min(1),
  copies: z.number().int().min(1).max(500),
});
export type LabelItem = z.infer<typeof labelItemSchema>;

/** The label stock: size in millimetres, and the printer's resolution. */
export type LabelStock = { widthMm: number; heightMm: number; dpi: 203 | 300 };
export const DEFAULT_LABEL_STOCK: LabelStock = { widthMm: 50, heightMm: 30, dpi: 203 };

/** EAN-13 for a valid 13-digit GTIN, Code 128 for anything else (SKU, internal codes). */
export function barcodeKind(code: string): 'ean13' | 'code128' {
  return code.length === 13 && isValidGtin(code) ? 'ean13' : 'code128';
}

const dots = (mm: number, dpi: number) => Math.round((mm * dpi) / 25.4);

/** The text lines of a label: name (two lines at most), variant, price. */
function lines(item: LabelItem, maxChars: number) {
  const name = item.name.length > maxChars * 2 ? `${item.name.slice(0, maxChars * 2 - 1)}…` : item.name;
  const first = name.slice(0, maxChars);
  const second = name.slice(maxChars);
  return { first, second, variant: item.variantName ?? '', price: formatCents(item.priceCents) };
}

/**
 * ZPL field data is escaped with ^FH: "_" followed by two hex digits. The control characters ^ and ~
 * and the escape "_" itself become hex; the text is UTF-8 (^CI28), so accents print as typed.
 */
export function zplText(text: string): string {
  return text.replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** One ZPL label format per item, with ^PQ copies. */
export function zplLabels(items: readonly LabelItem[], stock: LabelStock = DEFAULT_LABEL_STOCK): string {
  const width = dots(stock.widthMm, stock.dpi);
  const height = dots(stock.heightMm, stock.dpi);
  const margin = dots(2, stock.dpi);
  const font = dots(3, stock.dpi);
  const big = dots(4.5, stock.dpi);
  const maxChars = Math.max(8, Math.floor((width - 2 * margin) / (font * 0.6)));
  return items
    .map((item) => {
      const l = lines(item, maxChars);
      const kind = barcodeKind(item.code);
      const barHeight = Math.max(dots(6, stock.dpi), height - margin - (margin + 3 * font + big + margin));
      const barY = height - margin - barHeight - font;
      const barcode =
        kind === 'ean13'
          ? // ^BE takes the 12 digits and prints its own check digit.
            `^FO${margin},${barY}^BY2^BEN,${barHeight},Y,N^FD${item.code.slice(0, 12)}^FS`
          : `^FO${margin},${barY}^BY2^BCN,${barHeight},Y,N,N^FH^FD${zplText(item.code)}^FS`;
      return [
        '^XA',
        '^CI28',
        `^PW${width}`,
        `^LL${height}`,
        `^FO${margin},${margin}^A0N,${font},${font}^FH^FD${zplText(l.first)}^FS`,
        l.second ? `^FO${margin},${margin + font}^A0N,${font},${font}^FH^FD${zplText(l.second)}^FS` : '',
        l.variant
          ? `^FO${margin},${margin + 2 * font}^A0N,${font},${font}^FH^FD${zplText(l.variant)}^FS`
          : '',
        `^FO${margin},${margin + 3 * font}^A0N,${big},${big}^FH^FD${zplText(l.price)}^FS`,
        barcode,
        `^PQ${item.copies}`,
        '^XZ',
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
}

/**
 * EPL2 strings are quoted: a quote or a backslash is escaped with a backslash. EPL's fonts are
 * single-byte code pages without a dependable Portuguese one across models, so accents are taken
 * off ("Pão" -> "Pao"); ZPL keeps them.
 */
export function eplText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/[\\"]/g, (c) => `\\${c}`);
}

/** One EPL2 form per item: N (clear), q/Q (size), texts, the barcode, P copies. */
export function eplLabels(items: readonly LabelItem[], stock: LabelStock = DEFAULT_LABEL_STOCK): string {
  const width = dots(stock.widthMm, stock.dpi);
  const height = dots(stock.heightMm, stock.dpi);
  const gap = dots(3, stock.dpi);
  const margin = dots(2, stock.dpi);
  // Font 2 is 10x16 dots at 203 dpi; font 4 is 14x24.
  const maxChars = Math.max(8, Math.floor((width - 2 * margin) / 10));
  return items
    .map((item) => {
      const l = lines(item, maxChars);
      const kind = barcodeKind(item.code);
      const barY = margin + 16 * 3 + 24 + 8;
      const barHeight = Math.max(40, height - barY - margin - 20);
      const barcode =
        kind === 'ean13'
          ? `B${margin},${barY},0,E30,2,2,${barHeight},B,"${item.code.slice(0, 12)}"`
          : `B${margin},${barY},0,1,2,2,${barHeight},B,"${eplText(item.code)}"`;
      return [
        '',
        'N',
        `q${width}`,
        `Q${height},${gap}`,
        `A${margin},${margin},0,2,1,1,N,"${eplText(l.first)}"`,
        l.second ? `A${margin},${margin + 16},0,2,1,1,N,"${eplText(l.second)}"` : '',
        l.variant ? `A${margin},${margin + 32},0,2,1,1,N,"${eplText(l.variant)}"` : '',
        `A${margin},${margin + 48},0,4,1,1,N,"${eplText(l.price)}"`,
        barcode,
        `P${item.copies}`,
      ]
        .filter((line, i) => i === 0 || line)
        .join('\n');
    })
    .join('\n')
    .concat('\n');
}

export function labelCommands(language: LabelLanguage, items: readonly LabelItem[], stock?: LabelStock) {
  return language === 'zpl' ? zplLabels(items, stock) : eplLabels(items, stock);
}

export const LABEL_ITEMS_MESSAGE =
  'Escolha os produtos e as quantidades de etiquetas (até 200 produtos e 500 etiquetas de cada)';

/**
 * The products of a label print in a query string (a download is a GET): "12x3,15-7x2" is product
 * 12 three times and variant 7 of product 15 twice.
 */
export const labelItemsQuerySchema = z.object({
  items: z
    .string({ message: LABEL_ITEMS_MESSAGE })
    .regex(/^\d+(-\d+)?x\d+(,\d+(-\d+)?x\d+)*$/, LABEL_ITEMS_MESSAGE)
    .transform((text) =>
      text.split(',').map((part) => {
        const [ids, copies] = part.split('x');
        const [productId, variantId] = ids.split('-');
        return {
          productId: Number(productId),
          variantId: variantId ? Number(variantId) : null,
          copies: Number(copies),
        };
      }),
    )
    .refine(
      (items) => items.length <= 200 && items.every((i) => i.copies >= 1 && i.copies <= 500),
      LABEL_ITEMS_MESSAGE,
    ),
  language: z.enum(LABEL_LANGUAGES).optional(),
});
export type LabelItemsQuery = z.input<typeof labelItemsQuerySchema>;

/** The query text of a label print (the web builds the download's address with it). */
export const labelItemsText = (
  items: readonly { productId: number; variantId: number | null; copies: number }[],
) => items.map((i) => `${i.productId}${i.variantId ? `-${i.variantId}` : ''}x${i.copies}`).join(',');

/** POST /v1/label/print: the labels sent to a label printer through the print agent (a raw job). */
export const labelPrintInputSchema = z.object({
  items: labelItemsQuerySchema.shape.items,
  language: z
    .enum(LABEL_LANGUAGES, { message: 'Escolha a linguagem da impressora: ZPL ou EPL' })
    .default('zpl'),
  profileId: z
    .number({ message: 'Escolha a impressora de etiquetas' })
    .int()
    .positive('Escolha a impressora de etiquetas'),
  idempotencyKey: z
    .string({ message: 'Envie a chave de idempotência (idempotencyKey)' })
    .trim()
    .min(8, 'Chave de idempotência inválida')
    .max(100, 'Chave de idempotência inválida'),
});
export type LabelPrintInput = z.input<typeof labelPrintInputSchema>;

/** The label job's lines (what the job list shows; the printer gets the commands). */
export function labelJobLines(items: readonly LabelItem[], language: LabelLanguage): string[] {
  const total = items.reduce((sum, i) => sum + i.copies, 0);
  return [
    `${total} ${total === 1 ? 'etiqueta' : 'etiquetas'} (${language.toUpperCase()})`,
    ...items
      .slice(0, 50)
      .map((i) => `${i.copies} x ${i.name}${i.variantName ? ` (${i.variantName})` : ''}`.slice(0, 200)),
    ...(items.length > 50 ? [`e mais ${items.length - 50} produtos`] : []),
  ];
}

/**
 * A stock entry's lines as a label source (issue 36): one label per unit that arrived (a whole
 * quantity, at most 500), one label for a weighed or fractional quantity (12,5 kg of cheese is one
 * shelf label); the same product or variant twice in an entry adds up.
 */
export function labelItemsOfEntry(
  lines: readonly { productId: number; variantId: number | null; quantity: number }[],
): { productId: number; variantId: number | null; copies: number }[] {
  const out = new Map<string, { productId: number; variantId: number | null; copies: number }>();
  for (const line of lines) {
    if (!(line.quantity > 0)) continue;
    const copies = Number.isInteger(line.quantity) ? line.quantity : 1;
    const key = `${line.productId}-${line.variantId ?? ''}`;
    const known = out.get(key);
    if (known) known.copies = Math.min(500, known.copies + copies);
    else
      out.set(key, { productId: line.productId, variantId: line.variantId, copies: Math.min(500, copies) });
  }
  return [...out.values()];
}
