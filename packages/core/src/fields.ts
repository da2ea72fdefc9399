import { REQUIRED, z } from './zod.ts';

/** Input fields shared by the schemas of several domains. */

/** Optional text, trimmed, at most `max` characters; empty becomes null (never "" in the database). */
export const optionalText = (max: number, message = `Use no máximo ${max} caracteres`) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

/** The name of a person or company (a customer, a staff user): 2 to 120 characters. */
export const personNameSchema = z
  .string({ message: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .min(2, 'O nome deve ter no mínimo 2 caracteres')
  .max(120, 'Use no máximo 120 caracteres');

/**
 * A number given as a number (API) or as the text of an input (form). Absent, or blank text, is
 * REQUIRED; any other type says `invalid`. `parse` reads the value: the number, or the message of
 * what is wrong with it.
 */
export const numberOrText = (invalid: string, parse: (value: number | string) => number | string) =>
  z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined || issue.input === null ? REQUIRED : invalid),
    })
    .transform((value, ctx) => {
      const parsed = typeof value === 'string' && value.trim() === '' ? REQUIRED : parse(value);
      if (typeof parsed === 'number') return parsed;
      ctx.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    });
