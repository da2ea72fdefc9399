import { z } from './zod.ts';

/**
 * The one list contract (DESIGN.md): `page`, `pageSize` (max 100), `q`, `sort` in;
 * `{items, total, page, pageSize}` out. `sort` is a field name, descending with a leading "-"
 * ("name", "-createdAt"). Each list extends `listQuerySchema` with its own filters.
 */
const PAGE_SIZE_DEFAULT = 20;
const PAGE_SIZE_MAX = 100;

export const listQuerySchema = z.object({
  page: z.coerce.number().int('Página inválida').min(1, 'Página inválida').default(1),
  pageSize: z.coerce
    .number()
    .int('Tamanho de página inválido')
    .min(1, 'Tamanho de página inválido')
    .max(PAGE_SIZE_MAX, `Use no máximo ${PAGE_SIZE_MAX} itens por página`)
    .default(PAGE_SIZE_DEFAULT),
  q: z
    .string()
    .trim()
    .max(200, 'Busca muito longa')
    .optional()
    .transform((v) => (v ? v : undefined)),
  sort: z
    .string()
    .trim()
    .regex(/^-?[A-Za-z][A-Za-z0-9_]*$/, 'Ordenação inválida')
    .optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** The answer of every paged list: `pageOf(customerListItemSchema)`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });
export type ListResult<T> = { items: T[]; total: number; page: number; pageSize: number };

export type SortSpec<F extends string> = { field: F; direction: 'asc' | 'desc' };

/** "-name" -> {field: 'name', direction: 'desc'}; null when the field is not one of `fields`. */
export function parseSort<F extends string>(
  sort: string | undefined,
  fields: readonly F[],
  fallback: SortSpec<F>,
): SortSpec<F> | null {
  if (!sort) return fallback;
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const field = sort.replace(/^-/, '');
  return (fields as readonly string[]).includes(field) ? { field: field as F, direction } : null;
}

/** An optional id filter of a query string ("?productId=12"). */
export const idFilter = (message: string) => z.coerce.number().int(message).positive(message).optional();

/** Query-string boolean filters ("true"/"false", absent = no filter). */
export const booleanFilter = z
  .enum(['true', 'false'], { message: 'Use true ou false' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true'));

/** Builds a query string of a list query, skipping empty values (web fetchers). */
export function toQueryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
