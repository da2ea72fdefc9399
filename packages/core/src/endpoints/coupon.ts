import { endpoint } from '../contract.ts';
import {
  couponInputSchema,
  couponSchema,
  couponValidateInputSchema,
  couponValidationSchema,
} from '../coupon.ts';
import { changesOf, changesQuerySchema } from '../offline.ts';
import { clientParams, idParams } from '../params.ts';
import { deletedSchema } from '../responses.ts';
import { BACKOFFICE, COUNTER } from '../routes.ts';
import { z } from '../zod.ts';

/** /v1/coupon (spec 7). Reading: every staff type (the page is STAFF); writing: WRITE.coupons. */
export const couponApi = {
  changes: endpoint({
    method: 'GET',
    path: '/coupon/changes',
    resource: 'coupon',
    access: COUNTER,
    summary:
      "The PDV's local copy (issue 21): coupons changed since a time (deleted ones by status), paged by id",
    query: changesQuerySchema,
    response: { 200: changesOf(couponSchema) },
  }),
  list: endpoint({
    method: 'GET',
    path: '/coupon/client/:clientId',
    resource: 'coupon',
    access: BACKOFFICE,
    summary: "The client's coupons that are not deleted (a plain array)",
    params: clientParams,
    response: { 200: z.array(couponSchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/coupon/:id',
    resource: 'coupon',
    access: BACKOFFICE,
    summary: 'One coupon',
    params: idParams,
    response: { 200: couponSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/coupon',
    resource: 'coupon',
    access: BACKOFFICE,
    summary: 'Create a coupon (status active unless sent inactive)',
    body: couponInputSchema,
    response: { 201: couponSchema },
    changes: ['coupon'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/coupon/:id',
    resource: 'coupon',
    access: BACKOFFICE,
    summary:
      "Update a coupon with the create's payload: a version (updatedAt or If-Match) is checked (409 when stale); without one, last write wins",
    params: idParams,
    body: couponInputSchema,
    response: { 200: couponSchema },
    changes: ['coupon'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/coupon/:id',
    resource: 'coupon',
    access: BACKOFFICE,
    summary: 'Delete a coupon (soft delete: status deleted, kept for the sales that used it)',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['coupon'],
  }),
  validate: endpoint({
    method: 'POST',
    path: '/coupon/validate',
    resource: 'coupon',
    access: COUNTER,
    summary: 'Does a code apply to a sale subtotal? The discount, or 404/422 with the reason',
    body: couponValidateInputSchema,
    response: { 200: couponValidationSchema },
  }),
} as const;
