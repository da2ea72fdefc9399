import { billingApi } from '@balcao/core/endpoints/billing';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { asaasClient } from './asaas.ts';
import {
  changePlan,
  getBilling,
  getBillingStatus,
  type ProductCount,
  payInvoice,
  receiveWebhook,
} from './service.ts';

/** /v1/billing: the handlers of `billingApi` (core declares the endpoints). */
export function billingRoutes(ctx: AppContext, productCount: ProductCount): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const gateway = asaasClient(ctx.config.asaas);

    route(app, billingApi.get, (request) => getBilling(db, sessionOf(request), productCount));

    route(app, billingApi.status, (request) => getBillingStatus(db, sessionOf(request)));

    route(app, billingApi.changePlan, (request) =>
      changePlan(ctx, sessionOf(request), request.body, productCount),
    );

    route(app, billingApi.pay, (request) =>
      payInvoice(ctx, sessionOf(request), request.params.id, request.body.method, gateway),
    );

    route(app, billingApi.webhook, (request) => {
      const header = request.headers['asaas-access-token'];
      return receiveWebhook(ctx, Array.isArray(header) ? header[0] : header, request.body);
    });
  };
}
