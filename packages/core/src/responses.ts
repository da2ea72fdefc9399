import { z } from './zod.ts';

/**
 * Building blocks of the API's answers (every route declares its answer as a schema; the paged list is
 * `pageOf` in list.ts).
 */

/** A reference to a record by id and name (the user of a sale, the seller, ...). */
export const refSchema = z.object({ id: z.number(), name: z.string() });

/** The answer of an action with nothing else to say (logout, password change). */
export const okSchema = z.object({ ok: z.boolean() });

/** A CSV download (text/csv; semicolon separated, UTF-8 with BOM). */
export const csvFileSchema = z.string().meta({ description: 'CSV file (text/csv)' });

/** A binary download (an image). */
export const binaryFileSchema = z.string().meta({ format: 'binary', description: 'File content' });
