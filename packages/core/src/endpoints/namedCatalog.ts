import { type Access, endpoint } from '../contract.ts';
import { pageOf } from '../list.ts';
import { clientParams, idParams } from '../params.ts';
import {
  catalogNameListQuerySchema,
  productCategoryInputSchema,
  productCategorySchema,
  productCategoryUpdateSchema,
} from '../product.ts';
import { deletedSchema } from '../responses.ts';

/** The resources that are a named catalog (name unique per client, active flag, usage count). */
export type NamedResource = 'product-category' | 'product-brand' | 'campaign-category';

/**
 * The five endpoints of a named catalog (categories, brands, campaign categories: one record shape):
 * list by client, read, create (201), update (200, stale -> 409), delete (409 while records use it).
 * `noun` names the record in the summaries; `usedBy` what refuses its delete.
 */
export function namedCatalogEndpoints<const R extends NamedResource>(
  resource: R,
  noun: { one: string; many: string },
  usedBy: string,
  access: { read: Access; write: Access },
) {
  return {
    list: endpoint({
      method: 'GET',
      path: `/${resource}/client/:clientId`,
      resource,
      access: access.read,
      summary: `The client's ${noun.many} with how many ${usedBy} use each: search, active filter, sort and pages`,
      params: clientParams,
      query: catalogNameListQuerySchema,
      response: { 200: pageOf(productCategorySchema) },
    }),
    get: endpoint({
      method: 'GET',
      path: `/${resource}/:id`,
      resource,
      access: access.read,
      summary: `One ${noun.one}`,
      params: idParams,
      response: { 200: productCategorySchema },
    }),
    create: endpoint({
      method: 'POST',
      path: `/${resource}`,
      resource,
      access: access.write,
      summary: `Create a ${noun.one} (the name is unique per client, ignoring case)`,
      body: productCategoryInputSchema,
      response: { 201: productCategorySchema },
      changes: [resource],
    }),
    update: endpoint({
      method: 'PUT',
      path: `/${resource}/:id`,
      resource,
      access: access.write,
      summary: `Update a ${noun.one}: updatedAt is required (409 when stale)`,
      params: idParams,
      body: productCategoryUpdateSchema,
      response: { 200: productCategorySchema },
      changes: [resource],
    }),
    remove: endpoint({
      method: 'DELETE',
      path: `/${resource}/:id`,
      resource,
      access: access.write,
      summary: `Delete a ${noun.one}; refused (409) while ${usedBy} use it`,
      params: idParams,
      response: { 200: deletedSchema },
      changes: [resource],
    }),
  } as const;
}

export type NamedCatalogApi<R extends NamedResource = NamedResource> = ReturnType<
  typeof namedCatalogEndpoints<R>
>;
