import {
  couponInputSchema,
  couponSchema,
  couponValidateInputSchema,
  couponValidationSchema,
  fromHundredths,
} from '@balcao/core/coupon';
import { changesOf, changesQuerySchema } from '@balcao/core/offline';
import { deletedSchema } from '@balcao/core/responses';
import { PDV, STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clientParams, idParams } from '../../lib/params.ts';
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

const tags = ['coupon'];

/** Writing needs WRITE.coupons (403); a client in the body that is not the caller's is 404. */
function writer(request: FastifyRequest, body: { client?: { id: number } }) {
  const session = assertCan(request, WRITE.coupons);
  if (body.client) assertOwnClient(request, body.client.id);
  return session;
}

/** /v1/coupon (spec 7). Reading: every staff type (the page is STAFF); writing: WRITE.coupons. */
export function couponRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    app.get(
      '/coupon/changes',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            "The PDV's local copy (issue 21): coupons changed since a time (deleted ones by status), paged by id",
          querystring: changesQuerySchema,
          response: { 200: changesOf(couponSchema) },
        },
      },
      async (request) => couponChanges(db, sessionOf(request), request.query),
    );

    app.get(
      '/coupon/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: "The client's coupons that are not deleted (a plain array)",
          params: clientParams,
          response: { 200: z.array(couponSchema) },
        },
      },
      async (request) => listCoupons(db, assertOwnClient(request, request.params.clientId)),
    );

    app.get(
      '/coupon/:id',
      {
        config: { access: STAFF },
        schema: { tags, summary: 'One coupon', params: idParams, response: { 200: couponSchema } },
      },
      async (request) => findCoupon(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/coupon',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Create a coupon (status active unless sent inactive)',
          body: couponInputSchema,
          response: { 201: couponSchema },
        },
      },
      async (request, reply) => {
        const actor = writer(request, request.body);
        return reply.status(201).send(await createCoupon(db, actor, request.body));
      },
    );

    app.put(
      '/coupon/:id',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Update a coupon: updatedAt is required (400 without it, 409 when stale)',
          params: idParams,
          body: couponInputSchema,
          response: { 200: couponSchema },
        },
      },
      async (request) => {
        const actor = writer(request, request.body);
        return updateCoupon(db, actor, request.params.id, request.body);
      },
    );

    app.delete(
      '/coupon/:id',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'Delete a coupon (soft delete: status deleted, kept for the sales that used it)',
          params: idParams,
          response: { 200: deletedSchema },
        },
      },
      async (request) => deleteCoupon(db, assertCan(request, WRITE.coupons), request.params.id),
    );

    app.post(
      '/coupon/validate',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'Does a code apply to a sale subtotal? The discount, or 404/422 with the reason',
          body: couponValidateInputSchema,
          response: { 200: couponValidationSchema },
        },
      },
      async (request) => {
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
      },
    );
  };
}
