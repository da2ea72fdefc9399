import { customerApi } from '@balcao/core/endpoints/customer';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { addAddress, customerAddresses, deleteAddress, updateAddress } from './addresses.ts';
import { customerChanges } from './changes.ts';
import { customersCsv } from './csv.ts';
import { importCustomers } from './import.ts';
import {
  createCustomer,
  customerCounters,
  customerTags,
  deleteCustomer,
  eachCustomer,
  findCustomer,
  listCustomers,
  type ReceivableFigures,
  updateCustomer,
} from './service.ts';
import { findStoreCredit } from './storeCredit.ts';
import { checkNumberNow, scheduleNumberCheck } from './whatsapp.ts';

/**
 * Customers (issue 5): the handlers of `customerApi` (core declares the endpoints and their access).
 * Their receivable figures (delinquency, pending) come from the receivable module, handed over at
 * wiring (modules/index.ts).
 */
export function customerRoutes(ctx: AppContext, figures: ReceivableFigures): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, customerApi.changes, (request) =>
      customerChanges(db, sessionOf(request), request.query, figures),
    );

    route(app, customerApi.list, (request) =>
      listCustomers(db, assertOwnClient(request, request.params.clientId), request.query, figures),
    );

    route(app, customerApi.export, async (request, reply) => {
      const actor = assertOwnClient(request, request.params.clientId);
      const csv = await customersCsv(eachCustomer(db, actor, request.query, figures));
      return sendCsvStream(reply, 'clientes', { ...csv, today: await shopToday(db, actor.clientId) });
    });

    route(app, customerApi.import, (request) =>
      importCustomers(ctx, assertOwnClient(request, request.params.clientId), request.body, request.log),
    );

    route(app, customerApi.counters, (request) =>
      customerCounters(db, assertOwnClient(request, request.params.clientId), figures),
    );

    route(app, customerApi.tags, (request) =>
      customerTags(db, assertOwnClient(request, request.params.clientId)),
    );

    route(app, customerApi.get, (request) =>
      findCustomer(db, sessionOf(request), request.params.id, figures),
    );

    route(app, customerApi.storeCredit, (request) =>
      findStoreCredit(db, sessionOf(request), request.params.id),
    );

    route(app, customerApi.create, async (request) => {
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
      return customer;
    });

    route(app, customerApi.update, async (request) => {
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
    });

    route(app, customerApi.remove, async (request) => {
      await deleteCustomer(db, sessionOf(request), request.params.id, figures);
      return { id: request.params.id };
    });

    route(app, customerApi.checkWhatsapp, async (request) => {
      const session = sessionOf(request);
      const customer = await findCustomer(db, session, request.params.id, figures);
      if (!customer.phone) throw new AppError(422, 'Este cliente não tem número de WhatsApp cadastrado');
      await checkNumberNow(ctx, session.clientId, { customerId: customer.id, phone: customer.phone });
      return findCustomer(db, session, customer.id, figures);
    });

    // Addresses one by one (the PDV adds a delivery address without opening the customer form).

    route(app, customerApi.addresses, (request) =>
      customerAddresses(db, sessionOf(request), request.params.customerId),
    );

    route(app, customerApi.addAddress, (request) => addAddress(db, sessionOf(request), request.body));

    route(app, customerApi.updateAddress, (request) =>
      updateAddress(db, sessionOf(request), request.params.id, request.body),
    );

    route(app, customerApi.removeAddress, async (request) => {
      await deleteAddress(db, sessionOf(request), request.params.id);
      return { id: request.params.id };
    });
  };
}
