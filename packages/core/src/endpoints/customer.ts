import { endpoint } from '../contract.ts';
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
} from '../customer.ts';
import { pageOf } from '../list.ts';
import { changesOf, changesQuerySchema, offlineCustomerSchema } from '../offline.ts';
import { clientParams, idParam, idParams } from '../params.ts';
import { csvFileSchema, deletedSchema } from '../responses.ts';
import { BACKOFFICE, COUNTER, STAFF, WRITE } from '../routes.ts';
import { storeCreditSchema } from '../saleReturn.ts';
import { z } from '../zod.ts';

/** `/user-address/customer/:customerId` */
export const customerParams = z.object({ customerId: idParam() });
/** An id inside a JSON body (a number, as before the path ids became strict). */
const bodyId = z.coerce.number().int().positive('Identificador inválido');

/** The CSV export's filters: the list's, without the page. */
export const customerExportQuerySchema = customerListQuerySchema.omit({ page: true, pageSize: true });
/** A new customer: the customer, and optionally the caller's own client id (checked). */
export const customerCreateSchema = z.intersection(
  customerInputSchema,
  z.object({ clientId: bodyId.optional() }),
);
/** An address on its own (the customer form sends them with the customer). */
export const addressBodySchema = addressInputSchema.omit({ id: true });
/** A new address of a customer. */
export const addressCreateSchema = z.intersection(addressBodySchema, z.object({ customerId: bodyId }));

/**
 * /v1/customer (issue 5): reads for every staff user (the PDV picks customers), writes for
 * WRITE.customers; their addresses one by one under /v1/user-address.
 */
export const customerApi = {
  changes: endpoint({
    method: 'GET',
    path: '/customer/changes',
    resource: 'customer',
    access: COUNTER,
    summary:
      "The PDV's local copy (issue 21): customers changed since a time, paged by id, and the ids deleted since",
    query: changesQuerySchema,
    response: { 200: changesOf(offlineCustomerSchema) },
  }),
  list: endpoint({
    method: 'GET',
    path: '/customer/client/:clientId',
    resource: 'customer',
    access: STAFF,
    summary: 'Customers of the client: search (name, CPF/CNPJ, phone, email), filters, pages',
    params: clientParams,
    query: customerListQuerySchema,
    response: { 200: pageOf(customerListItemSchema) },
  }),
  export: endpoint({
    method: 'GET',
    path: '/customer/client/:clientId/export',
    resource: 'customer',
    access: BACKOFFICE,
    summary: 'CSV of the filtered customer list (";" separated, UTF-8 with BOM)',
    params: clientParams,
    query: customerExportQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  import: endpoint({
    method: 'POST',
    path: '/customer/import/client/:clientId',
    resource: 'customer',
    access: WRITE.customers,
    summary:
      'CSV import: preview validates; commit creates all lines in one transaction, or only the valid ones with skipInvalid',
    params: clientParams,
    body: customerImportSchema,
    response: { 200: customerImportResultSchema },
    changes: ['customer'],
  }),
  counters: endpoint({
    method: 'GET',
    path: '/customer/counters/client/:clientId',
    resource: 'customer',
    access: BACKOFFICE,
    summary: 'Dashboard/campaign counters over active customers (delinquency, WhatsApp check)',
    params: clientParams,
    response: { 200: customerCountersSchema },
  }),
  tags: endpoint({
    method: 'GET',
    path: '/customer/tags/client/:clientId',
    resource: 'customer',
    access: BACKOFFICE,
    summary: "The tags the client's customers carry, with how many carry each (most used first)",
    params: clientParams,
    response: { 200: z.array(customerTagCountSchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/customer/:id',
    resource: 'customer',
    access: BACKOFFICE,
    summary: 'A customer with addresses',
    params: idParams,
    response: { 200: customerDetailSchema },
  }),
  storeCredit: endpoint({
    method: 'GET',
    path: '/customer/:id/store-credit',
    resource: 'customer',
    access: BACKOFFICE,
    summary: "A customer's vale-troca (issue 30): the balance and its last changes",
    params: idParams,
    response: { 200: storeCreditSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/customer',
    resource: 'customer',
    access: WRITE.customers,
    summary: 'Create a customer (WhatsApp number checked in the background)',
    body: customerCreateSchema,
    response: { 201: customerDetailSchema },
    changes: ['customer'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/customer/:id',
    resource: 'customer',
    access: WRITE.customers,
    summary: 'Edit a customer and their addresses; a stale updatedAt is 409',
    params: idParams,
    body: customerUpdateSchema,
    response: { 200: customerDetailSchema },
    changes: ['customer'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/customer/:id',
    resource: 'customer',
    access: WRITE.customers,
    summary: 'Delete a customer',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['customer'],
  }),
  checkWhatsapp: endpoint({
    method: 'POST',
    path: '/customer/:id/whatsapp-check',
    resource: 'customer',
    access: WRITE.customers,
    summary: "Check the customer's WhatsApp number now",
    params: idParams,
    response: { 200: customerDetailSchema },
    changes: ['customer'],
  }),
  // Addresses one by one (the PDV adds a delivery address without opening the customer form).
  addresses: endpoint({
    method: 'GET',
    path: '/user-address/customer/:customerId',
    resource: 'user-address',
    access: BACKOFFICE,
    summary: "A customer's addresses, default first",
    params: customerParams,
    response: { 200: z.array(customerAddressSchema) },
  }),
  addAddress: endpoint({
    method: 'POST',
    path: '/user-address',
    resource: 'user-address',
    access: WRITE.customers,
    summary: "Add an address; the customer's first address is the default",
    body: addressCreateSchema,
    response: { 201: addressRecordSchema },
    changes: ['user-address', 'customer'],
  }),
  updateAddress: endpoint({
    method: 'PUT',
    path: '/user-address/:id',
    resource: 'user-address',
    access: WRITE.customers,
    summary: 'Edit an address',
    params: idParams,
    body: addressBodySchema,
    response: { 200: addressRecordSchema },
    changes: ['user-address', 'customer'],
  }),
  removeAddress: endpoint({
    method: 'DELETE',
    path: '/user-address/:id',
    resource: 'user-address',
    access: WRITE.customers,
    summary: 'Delete an address; when it was the default, the oldest remaining one becomes the default',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['user-address', 'customer'],
  }),
} as const;
