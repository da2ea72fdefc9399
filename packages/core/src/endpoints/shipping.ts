import { endpoint } from '../contract.ts';
import { clientParams, idParams } from '../params.ts';
import { deletedSchema } from '../responses.ts';
import { ALL, COUNTER, SHIPPING } from '../routes.ts';
import {
  deliveryQuoteInputSchema,
  deliveryQuoteSchema,
  freightQuoteInputSchema,
  freightQuoteSchema,
  melhorEnvioSettingsInputSchema,
  melhorEnvioSettingsSchema,
  oauthCallbackInputSchema,
  oauthStartSchema,
  rodonavesSettingsInputSchema,
  rodonavesSettingsSchema,
  shippingRuleSetSchema,
  shippingSettingInputSchema,
} from '../shipping.ts';
import { z } from '../zod.ts';

/**
 * POST /shipping/melhor-envio/authorize. `redirectUri` is ignored: Melhor Envio sends the user back to
 * the server's own PUBLIC_URL (kept optional for older clients).
 */
export const oauthAuthorizeInputSchema = z.object({ redirectUri: z.string().optional() });

/**
 * Shipping (issue 15): own delivery rule sets (`/v1/shipping-settings`, the session's contract kept),
 * the own-delivery freight of an address, the carriers' settings (Melhor Envio with OAuth2, Rodonaves)
 * and their quotes. Pages are SHIPPING (quotes: PDV); writing settings is WRITE.settings. One OpenAPI
 * tag ('shipping'; the session's rule-set list is under 'settings'); the rule sets and the carriers
 * are each a resource of their own (what the socket signals).
 */
export const shippingApi = {
  ruleSets: endpoint({
    method: 'GET',
    path: '/shipping-settings/client/:clientId',
    resource: 'shipping-settings',
    tag: 'settings',
    access: ALL,
    summary: 'Delivery rule sets of the client (a list; the session takes the first)',
    params: clientParams,
    response: { 200: z.array(shippingRuleSetSchema) },
  }),
  ruleSet: endpoint({
    method: 'GET',
    path: '/shipping-settings/:id',
    resource: 'shipping-settings',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'One delivery rule set',
    params: idParams,
    response: { 200: shippingRuleSetSchema },
  }),
  createRuleSet: endpoint({
    method: 'POST',
    path: '/shipping-settings',
    resource: 'shipping-settings',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Create a delivery rule set (default: takes the default from the others)',
    body: shippingSettingInputSchema,
    response: { 201: shippingRuleSetSchema },
    changes: ['shipping-settings'],
  }),
  updateRuleSet: endpoint({
    method: 'PUT',
    path: '/shipping-settings/:id',
    resource: 'shipping-settings',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Update a delivery rule set: updatedAt is required (400 without it, 409 when stale)',
    params: idParams,
    body: shippingSettingInputSchema,
    response: { 200: shippingRuleSetSchema },
    changes: ['shipping-settings'],
  }),
  removeRuleSet: endpoint({
    method: 'DELETE',
    path: '/shipping-settings/:id',
    resource: 'shipping-settings',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Delete a delivery rule set',
    params: idParams,
    response: { 200: deletedSchema },
    changes: ['shipping-settings'],
  }),
  deliveryQuote: endpoint({
    method: 'POST',
    path: '/shipping/delivery-quote',
    resource: 'shipping',
    access: COUNTER,
    summary: 'Own-delivery freight of an address with the reason ("Bairro Centro: R$ 5,00") or why not',
    body: deliveryQuoteInputSchema,
    response: { 200: deliveryQuoteSchema },
  }),
  freightQuote: endpoint({
    method: 'POST',
    path: '/shipping/freight-quote',
    resource: 'shipping',
    access: COUNTER,
    summary: 'Carrier quotes in parallel (Melhor Envio, Rodonaves): per service price, time or error',
    body: freightQuoteInputSchema,
    response: { 200: freightQuoteSchema },
  }),
  melhorEnvio: endpoint({
    method: 'GET',
    path: '/shipping/melhor-envio',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Melhor Envio settings (secrets never answered: only whether they are set)',
    response: { 200: melhorEnvioSettingsSchema },
  }),
  saveMelhorEnvio: endpoint({
    method: 'PUT',
    path: '/shipping/melhor-envio',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Save Melhor Envio settings; token/clientSecret absent = kept, "" = removed',
    body: melhorEnvioSettingsInputSchema,
    response: { 200: melhorEnvioSettingsSchema },
    changes: ['shipping-carrier'],
  }),
  authorizeMelhorEnvio: endpoint({
    method: 'POST',
    path: '/shipping/melhor-envio/authorize',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Start the OAuth2 authorization: the Melhor Envio URL to open',
    body: oauthAuthorizeInputSchema,
    response: { 200: oauthStartSchema },
  }),
  melhorEnvioCallback: endpoint({
    method: 'POST',
    path: '/shipping/melhor-envio/callback',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Finish the OAuth2 authorization: check state, trade the code for tokens',
    body: oauthCallbackInputSchema,
    response: { 200: melhorEnvioSettingsSchema },
    changes: ['shipping-carrier'],
  }),
  rodonaves: endpoint({
    method: 'GET',
    path: '/shipping/rodonaves',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Rodonaves settings (the password is never answered)',
    response: { 200: rodonavesSettingsSchema },
  }),
  saveRodonaves: endpoint({
    method: 'PUT',
    path: '/shipping/rodonaves',
    resource: 'shipping-carrier',
    tag: 'shipping',
    access: SHIPPING,
    summary: 'Save Rodonaves settings; password absent = kept, "" = removed',
    body: rodonavesSettingsInputSchema,
    response: { 200: rodonavesSettingsSchema },
    changes: ['shipping-carrier'],
  }),
} as const;
