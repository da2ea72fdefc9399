import type { CustomerImportResult, customerImportSchema } from '@balcao/core/customer';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { parseCustomerCsv } from './csv.ts';
import { insertCustomer, takenDocuments } from './service.ts';
import { scheduleNumberCheck } from './whatsapp.ts';

/**
 * CSV import: `preview` validates every line (documents repeated in the file or already registered
 * included); `commit` creates all lines in one transaction, or only the valid ones with
 * `skipInvalid` (otherwise 422 with the errors per line). The new numbers are checked on WhatsApp
 * in the background.
 */
export async function importCustomers(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof customerImportSchema>,
  log: FastifyBaseLogger,
): Promise<CustomerImportResult> {
  const clientId = actor.clientId;
  const { csv, mode, skipInvalid } = input;
  const lines = parseCustomerCsv(csv);
  // Documents repeated in the file or already registered.
  const firstLineOf = new Map<string, number>();
  for (const l of lines) {
    if (!l.data?.document) continue;
    const first = firstLineOf.get(l.data.document);
    if (first !== undefined) l.errors.push(`CPF/CNPJ repetido (já aparece na linha ${first})`);
    else firstLineOf.set(l.data.document, l.line);
  }
  const taken = await takenDocuments(ctx.db, clientId, [...firstLineOf.keys()]);
  for (const l of lines) {
    if (l.data?.document && taken.has(l.data.document) && firstLineOf.get(l.data.document) === l.line) {
      l.errors.push('CPF/CNPJ já cadastrado em outro cliente');
    }
  }
  const valid = lines.filter((l) => l.errors.length === 0 && l.data);
  const invalid = lines.length - valid.length;
  const result: CustomerImportResult = {
    mode,
    total: lines.length,
    valid: valid.length,
    invalid,
    created: 0,
    lines: lines.map(({ data: _data, ...line }) => line),
  };
  if (mode === 'preview') return result;
  if (invalid > 0 && !skipInvalid) {
    throw new AppError(
      422,
      `${invalid} linha(s) com erro: nada foi importado. Corrija o arquivo ou escolha importar só as linhas válidas.`,
      lines
        .filter((l) => l.errors.length > 0)
        .map((l) => ({ path: `linha ${l.line}`, message: l.errors.join('; ') })),
    );
  }
  const created = await ctx.db.transaction(async (tx) => {
    const ids: { customerId: number; phone: string | null }[] = [];
    for (const l of valid) {
      const customerId = await insertCustomer(tx, clientId, l.data!);
      ids.push({ customerId, phone: l.data!.phone });
    }
    return ids;
  });
  scheduleNumberCheck(
    ctx,
    clientId,
    created.flatMap((c) => (c.phone ? [{ customerId: c.customerId, phone: c.phone }] : [])),
    log,
  );
  return { ...result, created: created.length };
}
