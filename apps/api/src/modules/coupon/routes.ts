import { fromHundredths } from '@balcao/core/coupon';
import { couponApi } from '@balcao/core/endpoints/coupon';
import { WRITE } from '@balcao/core/routes';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
import { assertCan, assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import {
  checkCoupon,
  couponChanges,
  createCoupon,
  deleteCoupon,
  findCoupon,
  listCoupons,
  updateCoupon,
} from './service.ts';

/** Writing needs WRITE.coupons (403); a client in the body that is not the caller's is 404. */
function writer(request: FastifyRequest, body: { client?: { id: number } }) {
  const session = assertCan(request, WRITE.coupons);
  if (body.client) assertOwnClient(request, body.client.id);
  return session;
}

/** /v1/coupon (spec 7): the handlers of `couponApi` (core declares the endpoints). */
export function couponRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, couponApi.changes, (request) => couponChanges(db, sessionOf(request), request.query));

    route(app, couponApi.list, (request) =>
      listCoupons(db, assertOwnClient(request, request.params.clientId)),
    );

    route(app, couponApi.get, (request) => findCoupon(db, sessionOf(request), request.params.id));

    route(app, couponApi.create, (request) => createCoupon(db, writer(request, request.body), request.body));

    route(app, couponApi.update, (request) =>
      updateCoupon(
        db,
        writer(request, request.body),
        request.params.id,
        request.body,
        request.headers['if-match'],
      ),
    );

    route(app, couponApi.remove, (request) =>
      deleteCoupon(db, assertCan(request, WRITE.coupons), request.params.id),
    );

    route(app, couponApi.validate, async (request) => {
      const { subtotalCents, customerId, code } = request.body;
      const { coupon, discountCents } = await checkCoupon(db, sessionOf(request), {
        code,
        subtotalCents,
        customerId,
      });
      return {
        valid: true as const,
        discount: fromHundredths(discountCents),
        discountCents,
        subtotalCents,
        totalCents: subtotalCents - discountCents,
        coupon,
      };
    });
  };
}
