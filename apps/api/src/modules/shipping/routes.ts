import { deletedSchema } from '@balcao/core/responses';
import { PDV, SHIPPING, WRITE } from '@balcao/core/routes';
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
} from '@balcao/core/shipping';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clientParams, idParams } from '../../lib/params.ts';
import { secretBox } from '../../lib/secrets.ts';
import { assertCan, assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import {
  loadAccount,
  type MelhorEnvioSecrets,
  type MelhorEnvioStored,
  melhorEnvioView,
  type RodonavesSecrets,
  type RodonavesStored,
  rodonavesView,
  saveMelhorEnvio,
  saveRodonaves,
} from './carrierAccounts.ts';
import {
  finishMelhorEnvioOAuth,
  forgetQuotes,
  freightState,
  quoteFreight,
  startMelhorEnvioOAuth,
} from './freight.ts';
import { osrmRouting } from './routing.ts';
import {
  createRuleSet,
  deleteRuleSet,
  findRuleSet,
  findShippingSettings,
  quoteDelivery,
  updateRuleSet,
} from './service.ts';

const tags = ['shipping'];

/**
 * Shipping (issue 15): own delivery rule sets (`/v1/shipping-settings`, the session's contract kept),
 * the own-delivery freight of an address, the carriers' settings (Melhor Envio with OAuth2, Rodonaves)
 * and their quotes. Pages are SHIPPING (quotes: PDV); writing settings is WRITE.settings.
 */
export function shippingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db, config } = ctx;
    const box = config.secretsKey ? secretBox(config.secretsKey) : null;
    const routing = osrmRouting({
      routingUrl: config.shipping.routingUrl,
      geocoderUrl: config.shipping.geocoderUrl,
      timeoutMs: config.shipping.routingTimeoutMs,
      userAgent: config.shipping.userAgent,
    });
    const deps = { config: config.shipping, box };
    const state = freightState();

    app.get(
      '/shipping-settings/client/:clientId',
      {
        schema: {
          tags: ['settings'],
          summary: 'Delivery rule sets of the client (a list; the session takes the first)',
          params: clientParams,
          response: { 200: z.array(shippingRuleSetSchema) },
        },
      },
      async (request) => findShippingSettings(db, assertOwnClient(request, request.params.clientId).clientId),
    );

    app.get(
      '/shipping-settings/:id',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'One delivery rule set',
          params: idParams,
          response: { 200: shippingRuleSetSchema },
        },
      },
      async (request) => findRuleSet(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/shipping-settings',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Create a delivery rule set (default: takes the default from the others)',
          body: shippingSettingInputSchema,
          response: { 201: shippingRuleSetSchema },
        },
      },
      async (request, reply) => {
        const actor = assertCan(request, WRITE.settings);
        const created = await createRuleSet(db, actor, request.body);
        ctx.changed(actor.clientId, 'shipping-settings', created.id);
        return reply.status(201).send(created);
      },
    );

    app.put(
      '/shipping-settings/:id',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Update a delivery rule set: updatedAt is required (400 without it, 409 when stale)',
          params: idParams,
          body: shippingSettingInputSchema,
          response: { 200: shippingRuleSetSchema },
        },
      },
      async (request) => {
        const actor = assertCan(request, WRITE.settings);
        const updated = await updateRuleSet(db, actor, request.params.id, request.body);
        ctx.changed(actor.clientId, 'shipping-settings', updated.id);
        return updated;
      },
    );

    app.delete(
      '/shipping-settings/:id',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Delete a delivery rule set',
          params: idParams,
          response: { 200: deletedSchema },
        },
      },
      async (request) => {
        const actor = assertCan(request, WRITE.settings);
        const deleted = await deleteRuleSet(db, actor, request.params.id);
        ctx.changed(actor.clientId, 'shipping-settings', deleted.id);
        return deleted;
      },
    );

    app.post(
      '/shipping/delivery-quote',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'Own-delivery freight of an address with the reason ("Bairro Centro: R$ 5,00") or why not',
          body: deliveryQuoteInputSchema,
          response: { 200: deliveryQuoteSchema },
        },
      },
      async (request) => quoteDelivery(db, sessionOf(request), request.body, routing),
    );

    app.post(
      '/shipping/freight-quote',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: 'Carrier quotes in parallel (Melhor Envio, Rodonaves): per service price, time or error',
          body: freightQuoteInputSchema,
          response: { 200: freightQuoteSchema },
        },
      },
      async (request) => quoteFreight(db, sessionOf(request), request.body, deps, state),
    );

    const readMelhorEnvio = async (clientId: number) =>
      melhorEnvioView(
        await loadAccount<MelhorEnvioStored, MelhorEnvioSecrets>(db, clientId, 'melhor_envio', box),
      );
    const readRodonaves = async (clientId: number) =>
      rodonavesView(await loadAccount<RodonavesStored, RodonavesSecrets>(db, clientId, 'rodonaves', box));

    app.get(
      '/shipping/melhor-envio',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Melhor Envio settings (secrets never answered: only whether they are set)',
          response: { 200: melhorEnvioSettingsSchema },
        },
      },
      async (request) => readMelhorEnvio(sessionOf(request).clientId),
    );

    app.put(
      '/shipping/melhor-envio',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Save Melhor Envio settings; token/clientSecret absent = kept, "" = removed',
          body: melhorEnvioSettingsInputSchema,
          response: { 200: melhorEnvioSettingsSchema },
        },
      },
      async (request) => {
        const actor = assertCan(request, WRITE.settings);
        await saveMelhorEnvio(db, actor, request.body, box);
        forgetQuotes(state, actor.clientId, 'melhor_envio');
        ctx.changed(actor.clientId, 'shipping-carrier');
        return readMelhorEnvio(actor.clientId);
      },
    );

    app.post(
      '/shipping/melhor-envio/authorize',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Start the OAuth2 authorization: the Melhor Envio URL to open',
          body: z.object({ redirectUri: z.string() }),
          response: { 200: oauthStartSchema },
        },
      },
      async (request) =>
        startMelhorEnvioOAuth(db, assertCan(request, WRITE.settings), request.body.redirectUri, deps),
    );

    app.post(
      '/shipping/melhor-envio/callback',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Finish the OAuth2 authorization: check state, trade the code for tokens',
          body: oauthCallbackInputSchema,
          response: { 200: melhorEnvioSettingsSchema },
        },
      },
      async (request) => {
        const actor = assertCan(request, WRITE.settings);
        await finishMelhorEnvioOAuth(db, actor, request.body, deps);
        forgetQuotes(state, actor.clientId, 'melhor_envio');
        ctx.changed(actor.clientId, 'shipping-carrier');
        return readMelhorEnvio(actor.clientId);
      },
    );

    app.get(
      '/shipping/rodonaves',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Rodonaves settings (the password is never answered)',
          response: { 200: rodonavesSettingsSchema },
        },
      },
      async (request) => readRodonaves(sessionOf(request).clientId),
    );

    app.put(
      '/shipping/rodonaves',
      {
        config: { access: SHIPPING },
        schema: {
          tags,
          summary: 'Save Rodonaves settings; password absent = kept, "" = removed',
          body: rodonavesSettingsInputSchema,
          response: { 200: rodonavesSettingsSchema },
        },
      },
      async (request) => {
        const actor = assertCan(request, WRITE.settings);
        await saveRodonaves(db, actor, request.body, box);
        forgetQuotes(state, actor.clientId, 'rodonaves');
        ctx.changed(actor.clientId, 'shipping-carrier');
        return readRodonaves(actor.clientId);
      },
    );
  };
}
