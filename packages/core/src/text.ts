import { REQUIRED, z } from './zod.ts';

/** Text fields shared by the input schemas of several domains. */

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
