import { z } from './zod.ts';

/**
 * Building blocks of the API's answers (every route declares its answer as a schema; the paged list is
 * `pageOf` in list.ts).
 */

/** A reference to a record by id and name (the user of a sale, the seller, ...). */
export const refSchema = z.object({ id: z.number(), name: z.string() });

/** When a stored record was created and last changed, answered as ISO text (spread into its answer). */
export const timestampFields = { createdAt: z.string(), updatedAt: z.string() };

/** The answer of an action with nothing else to say (logout, password change). */
export const okSchema = z.object({ ok: z.boolean() });

/**
 * Downloads (declared under their content type, e.g. `{ content: { 'text/csv': { schema: csvFileSchema } } }`):
 * the body is the file itself, whole or streamed, never serialized as JSON.
 */
export const csvFileSchema = z
  .unknown()
  .meta({ type: 'string', description: 'CSV: ";" separated, decimal comma, UTF-8 with BOM' });
export const binaryFileSchema = z.unknown().meta({ type: 'string', format: 'binary' });
/** Newline-delimited JSON events (a streamed import's progress). */
export const ndjsonSchema = z.unknown().meta({ type: 'string', description: 'One JSON event per line' });

/** The answer of a delete that names what went. */
export const deletedSchema = z.object({ id: z.number() });
export type Deleted = z.infer<typeof deletedSchema>;

/**
 * GET /health: the API answers (liveness, no database query). Anonymous callers get only the status
 * (issue 31 item 4); the operator token (OPS_TOKEN as Bearer) adds which database it runs on.
 */
export const healthSchema = z.object({ status: z.string(), database: z.string().optional() });

/**
 * GET /ready: this instance may take traffic (a load balancer's check): the database answers, every
 * migration it ships is applied, and it is not shutting down. Otherwise 503. Anonymous callers get
 * only the status; the operator token adds the database kind and the migration count.
 */
export const readySchema = z.object({
  status: z.literal('ready'),
  database: z.string().optional(),
  /** Migrations applied (the count this build ships). */
  migrations: z.number().int().optional(),
});
