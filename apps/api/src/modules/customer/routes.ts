import {
  addressInputSchema,
  addressRecordSchema,
  customerAddressSchema,
  customerCountersSchema,
  customerDetailSchema,
  customerImportResultSchema,
  customerImportSchema,
  customerInputSchema,
  customerListItemSchema,
  customerListQuerySchema,
  customerTagCountSchema,
  customerUpdateSchema,
} from '@balcao/core/customer';
import { pageOf } from '@balcao/core/list';
import { changesOf, changesQuerySchema, offlineCustomerSchema } from '@balcao/core/offline';
import { csvFileSchema, deletedSchema } from '@balcao/core/responses';
import { BACKOFFICE, PDV, STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { clientParams, idParam, idParams } from '../../lib/params.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { addAddress, customerAddresses, deleteAddress, updateAddress } from './addresses.ts';
import { customerChanges } from './changes.ts';
import { customersToCsv } from './csv.ts';
import { importCustomers } from './import.ts';
import {
  createCustomer,
  customerCounters,
  customerTags,
  deleteCustomer,
  findAllCustomers,
  findCustomer,
  listCustomers,
  type ReceivableFigures,
  updateCustomer,
} from './service.ts';
import { checkNumberNow, scheduleNumberCheck } from './whatsapp.ts';

const customerParams = z.object({ customerId: idParam() });
/** An id inside a JSON body (a number, as before the path ids became strict). */
const bodyId = z.coerce.number().int().positive('Identificador inválido');

/**
 * Customers (issue 5): reads for every staff user (the PDV picks customers), writes for WRITE.customers;
 * their addresses one by one. Their receivable figures (delinquency, pending) come from the receivable
 * module, handed over at wiring (modules/index.ts).
 */
export function customerRoutes(ctx: AppContext, figures: ReceivableFigures): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const tags = ['customer'];

    app.get(
      '/customer/changes',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            "The PDV's local copy (issue 21): customers changed since a time, paged by id, and the ids deleted since",
          querystring: changesQuerySchema,
          response: { 200: changesOf(offlineCustomerSchema) },
        },
      },
      async (request) => customerChanges(db, sessionOf(request), request.query, figures),
    );

    app.get(
      '/customer/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Customers of the client: search (name, CPF/CNPJ, phone, email), filters, pages',
          params: clientParams,
          querystring: customerListQuerySchema,
          response: { 200: pageOf(customerListItemSchema) },
        },
      },
      async (request) => {
        const actor = assertOwnClient(request, request.params.clientId);
        return listCustomers(db, actor, request.query, figures);
      },
    );

    app.get(
      '/customer/client/:clientId/export',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'CSV of the filtered customer list (";" separated, UTF-8 with BOM)',
          params: clientParams,
          querystring: customerListQuerySchema.omit({ page: true, pageSize: true }),
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const actor = assertOwnClient(request, request.params.clientId);
        const items = await findAllCustomers(db, actor, request.query, figures);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="clientes-${await shopToday(db, actor.clientId)}.csv"`,
          )
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
          response: { 200: customerImportResultSchema },
        },
      },
      async (request) => {
        const actor = assertOwnClient(request, request.params.clientId);
        return importCustomers(ctx, actor, request.body, request.log);
      },
    );

    app.get(
      '/customer/counters/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'Dashboard/campaign counters over active customers (delinquency, WhatsApp check)',
          params: clientParams,
          response: { 200: customerCountersSchema },
        },
      },
      async (request) => customerCounters(db, assertOwnClient(request, request.params.clientId), figures),
    );

    app.get(
      '/customer/tags/client/:clientId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: "The tags the client's customers carry, with how many carry each (most used first)",
          params: clientParams,
          response: { 200: z.array(customerTagCountSchema) },
        },
      },
      async (request) => customerTags(db, assertOwnClient(request, request.params.clientId)),
    );

    app.get(
      '/customer/:id',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'A customer with addresses',
          params: idParams,
          response: { 200: customerDetailSchema },
        },
      },
      async (request) => findCustomer(db, sessionOf(request), request.params.id, figures),
    );

    app.post(
      '/customer',
      {
        config: { access: WRITE.customers },
        schema: {
          tags,
          summary: 'Create a customer (WhatsApp number checked in the background)',
          body: z.intersection(customerInputSchema, z.object({ clientId: bodyId.optional() })),
          response: { 201: customerDetailSchema },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        if (request.body.clientId !== undefined) assertOwnClient(request, request.body.clientId);
        const { clientId: _ignored, ...data } = request.body;
        const customer = await createCustomer(db, session, data, figures);
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
          response: { 200: customerDetailSchema },
        },
      },
      async (request) => {
        const session = sessionOf(request);
        const { customer, phoneChanged } = await updateCustomer(
          db,
          session,
          request.params.id,
          request.body,
          figures,
        );
        if (phoneChanged && customer.phone) {
          scheduleNumberCheck(
            ctx,
            session.clientId,
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
        schema: { tags, summary: 'Delete a customer', params: idParams, response: { 200: deletedSchema } },
      },
      async (request) => {
        await deleteCustomer(db, sessionOf(request), request.params.id, figures);
        return { id: request.params.id };
      },
    );

    app.post(
      '/customer/:id/whatsapp-check',
      {
        config: { access: WRITE.customers },
        schema: {
          tags,
          summary: "Check the customer's WhatsApp number now",
          params: idParams,
          response: { 200: customerDetailSchema },
        },
      },
      async (request) => {
        const session = sessionOf(request);
        const customer = await findCustomer(db, session, request.params.id, figures);
        if (!customer.phone) throw new AppError(422, 'Este cliente não tem número de WhatsApp cadastrado');
        await checkNumberNow(ctx, session.clientId, { customerId: customer.id, phone: customer.phone });
        return findCustomer(db, session, customer.id, figures);
      },
    );

    // Addresses one by one (the PDV adds a delivery address without opening the customer form).

    const addressTags = ['user-address'];

    const addressBody = addressInputSchema.omit({ id: true });

    app.get(
      '/user-address/customer/:customerId',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags: addressTags,
          summary: "A customer's addresses, default first",
          params: customerParams,
          response: { 200: z.array(customerAddressSchema) },
        },
      },
      async (request) => customerAddresses(db, sessionOf(request), request.params.customerId),
    );

    app.post(
      '/user-address',
      {
        config: { access: WRITE.customers },
        schema: {
          tags: addressTags,
          summary: "Add an address; the customer's first address is the default",
          body: z.intersection(addressBody, z.object({ customerId: bodyId })),
          response: { 201: addressRecordSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await addAddress(db, sessionOf(request), request.body)),
    );

    app.put(
      '/user-address/:id',
      {
        config: { access: WRITE.customers },
        schema: {
          tags: addressTags,
          summary: 'Edit an address',
          params: idParams,
          body: addressBody,
          response: { 200: addressRecordSchema },
        },
      },
      async (request) => updateAddress(db, sessionOf(request), request.params.id, request.body),
    );

    app.delete(
      '/user-address/:id',
      {
        config: { access: WRITE.customers },
        schema: {
          tags: addressTags,
          summary: 'Delete an address; when it was the default, the oldest remaining one becomes the default',
          params: idParams,
          response: { 200: deletedSchema },
        },
      },
      async (request) => {
        await deleteAddress(db, sessionOf(request), request.params.id);
        return { id: request.params.id };
      },
    );
  };
}
