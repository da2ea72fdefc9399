import { z } from './zod.ts';

/** The largest `serial` id PostgreSQL stores (int4). */
const MAX_ID = 2_147_483_647;

/**
 * A record id in a path: a positive decimal integer written plainly (no sign, leading zero,
 * exponent or hex: `/1`, never `/01`, `/1e2`, `/0x10` or `/-1`), at most int4. Anything else is a
 * 400 with the Portuguese message.
 */
export const idParam = (message = 'Identificador inválido') =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, message)
    .transform(Number)
    .refine((n) => n <= MAX_ID, message);

/** `/:id` */
export const idParams = z.object({ id: idParam() });
/** `/client/:clientId` */
export const clientParams = z.object({ clientId: idParam('Cliente inválido') });
