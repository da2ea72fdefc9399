import {
  addressInputSchema,
  CUSTOMER_NOT_FOUND,
  type CustomerImportResult,
  customerImportSchema,
  customerInputSchema,
  customerListQuerySchema,
  customerUpdateSchema,
  ONE_DEFAULT_ADDRESS,
} from '@balcao/core/customer';
import { todayIso } from '@balcao/core/date';
import { PDV, STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { customerCredit } from './credit.ts';
import { customersToCsv, parseCustomerCsv } from './csv.ts';
import { customers, userAddresses } from './schema.ts';
import {
  createCustomer,
  customerCounters,
  deleteCustomer,
  findAddresses,
  findAllCustomers,
  findCustomer,
  insertCustomer,
  listCustomers,
  takenDocuments,
  touchCustomer,
  updateCustomer,
} from './service.ts';
import { checkNumberNow, scheduleNumberCheck } from './whatsapp.ts';

const id = z.coerce.number().int().positive('Identificador inválido');
const idParams = z.object({ id });
const clientParams = z.object({ clientId: id });
const customerParams = z.object({ customerId: id });

/** Customers (issue 5): reads for every staff user (the PDV picks customers), writes for WRITE.customers. */
export function customerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = ['customer'];

    app.get(
      '/customer/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Customers of the client: search (name, CPF/CNPJ, phone, email), filters, pages',
          params: clientParams,
          querystring: customerListQuerySchema,
        },
      },
      async (request) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        return listCustomers(db, clientId, request.query);
      },
    );

    app.get(
      '/customer/client/:clientId/export',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'CSV of the filtered customer list (";" separated, UTF-8 with BOM)',
          params: clientParams,
          querystring: customerListQuerySchema.omit({ page: true, pageSize: true }),
        },
      },
      async (request, reply) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        const items = await findAllCustomers(db, clientId, request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="clientes-${todayIso()}.csv"`)
          .send(customersToCsv(items));
      },
    );

    app.post(
      '/customer/import/client/:clientId',
      {
        config: { access: WRITE.customers },
        schema: {
          tags,
          summary:
            'CSV import: preview validates; commit creates all lines in one transaction, or only the valid ones with skipInvalid',
          params: clientParams,
          body: customerImportSchema,
        },
      },
      async (request) => {
        const { clientId } = assertOwnClient(request, request.params.clientId);
        const { csv, mode, skipInvalid } = request.body;
        const lines = parseCustomerCsv(csv);
        // Documents repeated in the file or already registered.
        const firstLineOf = new Map<string, number>();
        for (const l of lines) {
          if (!l.data?.document) continue;
          const first = firstLineOf.get(l.data.document);
          if (first !== undefined) l.errors.push(`CPF/CNPJ repetido (já aparece na linha ${first})`);
          else firstLineOf.set(l.data.document, l.line);
        }
        const taken = await takenDocuments(db, clientId, [...firstLineOf.keys()]);
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
        const created = await db.transaction(async (tx) => {
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
          request.log,
        );
        return { ...result, created: created.length };
      },
    );

    app.get(
      '/customer/counters/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Dashboard/campaign counters over active customers (delinquency, WhatsApp check)',
          params: clientParams,
        },
      },
      async (request) => customerCounters(db, assertOwnClient(request, request.params.clientId).clientId),
    );

    app.get(
      '/customer/:id',
      { config: { access: STAFF }, schema: { tags, summary: 'A customer with addresses', params: idParams } },
      async (request) => findCustomer(db, sessionOf(request).clientId, request.params.id),
    );

    app.post(
      '/customer',
      {
        config: { access: WRITE.customers },
        schema: {
          tags,
          summary: 'Create a customer (WhatsApp number checked in the background)',
          body: z.intersection(customerInputSchema, z.object({ clientId: id.optional() })),
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        if (request.body.clientId !== undefined) assertOwnClient(request, request.body.clientId);
        const { clientId: _ignored, ...data } = request.body;
        const customer = await createCustomer(db, session.clientId, data);
        if (customer.phone) {
          scheduleNumberCheck(
            ctx,
            session.clientId,
            [{ customerId: customer.id, phone: customer.phone }],
            request.log,
          );
        }
        return reply.status(201).send(customer);
      },
    );

    app.put(
      '/customer/:id',
      {
        config: { access: WRITE.customers },
        schema: {
          tags,
          summary: 'Edit a customer and their addresses; a stale updatedAt is 409',
          params: idParams,
          body: customerUpdateSchema,
        },
      },
      async (request) => {
        const { clientId } = sessionOf(request);
        const { customer, phoneChanged } = await updateCustomer(
          db,
          clientId,
          request.params.id,
          request.body,
        );
        if (phoneChanged && customer.phone) {
          scheduleNumberCheck(
            ctx,
            clientId,
            [{ customerId: customer.id, phone: customer.phone }],
            request.log,
          );
        }
        return customer;
      },
    );

    app.delete(
      '/customer/:id',
      {
        config: { access: WRITE.customers },
        schema: { tags, summary: 'Delete a customer', params: idParams },
      },
      async (request) => {
        await deleteCustomer(db, sessionOf(request).clientId, request.params.id);
        return { ok: true };
      },
    );

    app.post(
      '/customer/:id/whatsapp-check',
      {
        config: { access: WRITE.customers },
        schema: { tags, summary: "Check the customer's WhatsApp number now", params: idParams },
      },
      async (request) => {
        const { clientId } = sessionOf(request);
        const customer = await findCustomer(db, clientId, request.params.id);
        if (!customer.phone) throw new AppError(422, 'Este cliente não tem número de WhatsApp cadastrado');
        await checkNumberNow(ctx, clientId, { customerId: customer.id, phone: customer.phone });
        return findCustomer(db, clientId, customer.id);
      },
    );

    app.get(
      '/sale/customer-credit/:customerId',
      {
        config: { access: PDV },
        schema: {
          tags: ['sale'],
          summary:
            "A customer's credit before a crediário sale: delinquency, pending, limit and the warnings to show (never a refusal)",
          params: customerParams,
          querystring: z.object({
            creditShopCents: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
          }),
        },
      },
      async (request) =>
        customerCredit(
          db,
          sessionOf(request).clientId,
          request.params.customerId,
          request.query.creditShopCents,
        ),
    );

    // Addresses one by one (the PDV adds a delivery address without opening the customer form).

    const addressTags = ['user-address'];

    async function ownCustomer(clientId: number, customerId: number) {
      const [row] = await db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
      if (!row) throw notFound(CUSTOMER_NOT_FOUND);
    }

    async function ownAddress(clientId: number, addressId: number) {
      const [row] = await db
        .select()
        .from(userAddresses)
        .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.id, addressId)));
      if (!row) throw notFound('Endereço não encontrado');
      return row;
    }

    const addressBody = addressInputSchema.omit({ id: true });

    app.get(
      '/user-address/customer/:customerId',
      {
        config: { access: STAFF },
        schema: {
          tags: addressTags,
          summary: "A customer's addresses, default first",
          params: customerParams,
        },
      },
      async (request) => {
        const { clientId } = sessionOf(request);
        await ownCustomer(clientId, request.params.customerId);
        return findAddresses(db, clientId, request.params.customerId);
      },
    );

    app.post(
      '/user-address',
      {
        config: { access: WRITE.customers },
        schema: {
          tags: addressTags,
          summary: "Add an address; the customer's first address is the default",
          body: z.intersection(addressBody, z.object({ customerId: id })),
        },
      },
      async (request, reply) => {
        const { clientId } = sessionOf(request);
        const { customerId, ...address } = request.body;
        await ownCustomer(clientId, customerId);
        const created = await db.transaction(async (tx) => {
          const existing = await findAddresses(tx, clientId, customerId);
          if (existing.length >= 20) throw new AppError(422, 'Cadastre no máximo 20 endereços');
          const isDefault = address.isDefault || existing.length === 0;
          if (isDefault) {
            await tx
              .update(userAddresses)
              .set({ isDefault: false })
              .where(and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, customerId)));
          }
          const now = new Date();
          const [row] = await tx
            .insert(userAddresses)
            .values({ ...address, isDefault, clientId, customerId, createdAt: now, updatedAt: now })
            .returning();
          await touchCustomer(tx, clientId, customerId);
          return row;
        });
        return reply.status(201).send(created);
      },
    );

    app.put(
      '/user-address/:id',
      {
        config: { access: WRITE.customers },
        schema: { tags: addressTags, summary: 'Edit an address', params: idParams, body: addressBody },
      },
      async (request) => {
        const { clientId } = sessionOf(request);
        const current = await ownAddress(clientId, request.params.id);
        if (current.isDefault && !request.body.isDefault) {
          throw new AppError(422, 'Marque outro endereço como principal antes', [
            { path: 'isDefault', message: ONE_DEFAULT_ADDRESS },
          ]);
        }
        return db.transaction(async (tx) => {
          if (request.body.isDefault) {
            await tx
              .update(userAddresses)
              .set({ isDefault: false })
              .where(
                and(
                  eq(userAddresses.customerId, current.customerId),
                  ne(userAddresses.id, current.id),
                  eq(userAddresses.clientId, clientId),
                ),
              );
          }
          const [row] = await tx
            .update(userAddresses)
            .set({ ...request.body, updatedAt: new Date() })
            .where(eq(userAddresses.id, current.id))
            .returning();
          await touchCustomer(tx, clientId, current.customerId);
          return row;
        });
      },
    );

    app.delete(
      '/user-address/:id',
      {
        config: { access: WRITE.customers },
        schema: {
          tags: addressTags,
          summary: 'Delete an address; when it was the default, the oldest remaining one becomes the default',
          params: idParams,
        },
      },
      async (request) => {
        const { clientId } = sessionOf(request);
        const current = await ownAddress(clientId, request.params.id);
        await db.transaction(async (tx) => {
          await tx.delete(userAddresses).where(eq(userAddresses.id, current.id));
          if (current.isDefault) {
            const [next] = await tx
              .select({ id: userAddresses.id })
              .from(userAddresses)
              .where(
                and(eq(userAddresses.clientId, clientId), eq(userAddresses.customerId, current.customerId)),
              )
              .orderBy(asc(userAddresses.id))
              .limit(1);
            if (next)
              await tx.update(userAddresses).set({ isDefault: true }).where(eq(userAddresses.id, next.id));
          }
          await touchCustomer(tx, clientId, current.customerId);
        });
        return { ok: true };
      },
    );
  };
}
