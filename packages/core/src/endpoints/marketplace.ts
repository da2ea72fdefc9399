import { endpoint } from '../contract.ts';
import {
  cancellationAnswerSchema,
  marketplaceAccountInputSchema,
  marketplaceAccountSchema,
  marketplaceAccountsSchema,
  marketplaceMappingInputSchema,
  marketplaceMappingSchema,
  marketplaceMappingsSchema,
  marketplaceOrderSchema,
  marketplaceOrdersQuerySchema,
  marketplaceOrdersSchema,
} from '../marketplace.ts';
import { idParams } from '../params.ts';
import { SHIPPING, WRITE } from '../routes.ts';

/**
 * /v1/marketplace (issue 35): the marketplace accounts (Configurações > Marketplaces, settings
 * writers), the inbox of orders and the item mapping (the delivery panel's people).
 */
export const marketplaceApi = {
  accounts: endpoint({
    method: 'GET',
    path: '/marketplace/accounts',
    resource: 'marketplace',
    access: WRITE.settings,
    summary: "The shop's marketplace accounts (secrets never answered) and the Open Delivery apps known",
    response: { 200: marketplaceAccountsSchema },
  }),
  createAccount: endpoint({
    method: 'POST',
    path: '/marketplace/accounts',
    resource: 'marketplace',
    access: WRITE.settings,
    summary: 'Add a marketplace account (the client secret is kept encrypted)',
    body: marketplaceAccountInputSchema,
    response: { 201: marketplaceAccountSchema },
    changes: ['marketplace'],
  }),
  updateAccount: endpoint({
    method: 'PUT',
    path: '/marketplace/accounts/:id',
    resource: 'marketplace',
    access: WRITE.settings,
    summary: 'Edit a marketplace account (an empty secret keeps the stored one)',
    params: idParams,
    body: marketplaceAccountInputSchema,
    response: { 200: marketplaceAccountSchema },
    changes: ['marketplace'],
  }),
  orders: endpoint({
    method: 'GET',
    path: '/marketplace/orders',
    resource: 'marketplace',
    access: SHIPPING,
    summary: 'The inbox: orders waiting for a confirmation or a mapping (or the last 100)',
    query: marketplaceOrdersQuerySchema,
    response: { 200: marketplaceOrdersSchema },
  }),
  confirm: endpoint({
    method: 'POST',
    path: '/marketplace/orders/:id/confirm',
    resource: 'marketplace',
    access: WRITE.delivery,
    summary:
      "Confirm an order: its sale (at the user's register) and delivery order are made once, the marketplace is told",
    params: idParams,
    response: { 200: marketplaceOrderSchema },
    changes: ['marketplace', 'delivery', 'sale'],
  }),
  reject: endpoint({
    method: 'POST',
    path: '/marketplace/orders/:id/reject',
    resource: 'marketplace',
    access: WRITE.delivery,
    summary: 'Refuse an unconfirmed order: the marketplace gets a cancellation request',
    params: idParams,
    response: { 200: marketplaceOrderSchema },
    changes: ['marketplace'],
  }),
  answerCancellation: endpoint({
    method: 'POST',
    path: '/marketplace/orders/:id/cancellation',
    resource: 'marketplace',
    access: WRITE.delivery,
    summary: "Accept or deny the customer's cancellation request",
    params: idParams,
    body: cancellationAnswerSchema,
    response: { 200: marketplaceOrderSchema },
    changes: ['marketplace', 'delivery'],
  }),
  mappings: endpoint({
    method: 'GET',
    path: '/marketplace/mappings',
    resource: 'marketplace',
    access: SHIPPING,
    summary: "The remembered item mappings (a marketplace item's code -> a product of the shop)",
    response: { 200: marketplaceMappingsSchema },
  }),
  map: endpoint({
    method: 'PUT',
    path: '/marketplace/mappings',
    resource: 'marketplace',
    access: WRITE.delivery,
    summary: "Map a marketplace item's code to a product (remembered; waiting orders take it)",
    body: marketplaceMappingInputSchema,
    response: { 200: marketplaceMappingSchema },
    changes: ['marketplace'],
  }),
} as const;
