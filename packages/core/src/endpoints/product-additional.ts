import { endpoint } from '../contract.ts';
import { listQuerySchema, pageOf } from '../list.ts';
import { clientParams, idParams } from '../params.ts';
import {
  productAdditionalGroupSchema,
  productAdditionalInputSchema,
  productAdditionalUpdateSchema,
} from '../product.ts';
import { deletedSchema } from '../responses.ts';
import { BACKOFFICE, WRITE } from '../routes.ts';

/** A group write moves the groups and the products that offer them (their detail shows the groups). */
const CHANGES = ['product-additional', 'product'] as const;

/** /v1/product-additional: add-on groups, read by the back office, written by the catalog roles. */
export const productAdditionalApi = {
  list: endpoint({
    method: 'GET',
    path: '/product-additional/client/:clientId',
    resource: 'product-additional',
    access: BACKOFFICE,
    summary: "The client's add-on groups with their options and how many products offer each",
    params: clientParams,
    query: listQuerySchema,
    response: { 200: pageOf(productAdditionalGroupSchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/product-additional/:id',
    resource: 'product-additional',
    access: BACKOFFICE,
    summary: 'One add-on group',
    params: idParams,
    response: { 200: productAdditionalGroupSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/product-additional',
    resource: 'product-additional',
    access: WRITE.catalog,
    summary: 'Create an add-on group with its options',
    body: productAdditionalInputSchema,
    response: { 201: productAdditionalGroupSchema },
    changes: CHANGES,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/product-additional/:id',
    resource: 'product-additional',
    access: WRITE.catalog,
    summary: 'Update an add-on group: updatedAt is required (409 when stale)',
    params: idParams,
    body: productAdditionalUpdateSchema,
    response: { 200: productAdditionalGroupSchema },
    changes: CHANGES,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/product-additional/:id',
    resource: 'product-additional',
    access: WRITE.catalog,
    summary: 'Delete an add-on group (the products stop offering it)',
    params: idParams,
    response: { 200: deletedSchema },
    changes: CHANGES,
  }),
} as const;
