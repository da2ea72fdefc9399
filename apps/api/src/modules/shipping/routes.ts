import { shippingApi } from '@balcao/core/endpoints/shipping';
import { WRITE } from '@balcao/core/routes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/endpoint.ts';
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
  OAUTH_PATH,
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

/** Shipping (issue 15): the handlers of `shippingApi` (core declares the endpoints). */
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

    const api = shippingApi;

    route(app, api.ruleSets, (request) =>
      findShippingSettings(db, assertOwnClient(request, request.params.clientId).clientId),
    );

    route(app, api.ruleSet, (request) => findRuleSet(db, sessionOf(request), request.params.id));

    route(app, api.createRuleSet, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      const created = await createRuleSet(db, actor, request.body);
      ctx.changed(actor.clientId, 'shipping-settings', created.id);
      return created;
    });

    route(app, api.updateRuleSet, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      const updated = await updateRuleSet(db, actor, request.params.id, request.body);
      ctx.changed(actor.clientId, 'shipping-settings', updated.id);
      return updated;
    });

    route(app, api.removeRuleSet, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      const deleted = await deleteRuleSet(db, actor, request.params.id);
      ctx.changed(actor.clientId, 'shipping-settings', deleted.id);
      return deleted;
    });

    route(app, api.deliveryQuote, (request) => quoteDelivery(db, sessionOf(request), request.body, routing));

    route(app, api.freightQuote, (request) =>
      quoteFreight(db, sessionOf(request), request.body, deps, state),
    );

    const readMelhorEnvio = async (clientId: number) =>
      melhorEnvioView(
        await loadAccount<MelhorEnvioStored, MelhorEnvioSecrets>(db, clientId, 'melhor_envio', box),
      );
    const readRodonaves = async (clientId: number) =>
      rodonavesView(await loadAccount<RodonavesStored, RodonavesSecrets>(db, clientId, 'rodonaves', box));

    route(app, api.melhorEnvio, (request) => readMelhorEnvio(sessionOf(request).clientId));

    route(app, api.saveMelhorEnvio, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      await saveMelhorEnvio(db, actor, request.body, box);
      forgetQuotes(state, actor.clientId, 'melhor_envio');
      ctx.changed(actor.clientId, 'shipping-carrier');
      return readMelhorEnvio(actor.clientId);
    });

    // The return address is the server's own (PUBLIC_URL), never the one the client sends (issue 31
    // item 2: links the server hands out are built from its configured address only).
    route(app, api.authorizeMelhorEnvio, (request) =>
      startMelhorEnvioOAuth(db, assertCan(request, WRITE.settings), `${config.publicUrl}${OAUTH_PATH}`, deps),
    );

    route(app, api.melhorEnvioCallback, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      await finishMelhorEnvioOAuth(db, actor, request.body, deps);
      forgetQuotes(state, actor.clientId, 'melhor_envio');
      ctx.changed(actor.clientId, 'shipping-carrier');
      return readMelhorEnvio(actor.clientId);
    });

    route(app, api.rodonaves, (request) => readRodonaves(sessionOf(request).clientId));

    route(app, api.saveRodonaves, async (request) => {
      const actor = assertCan(request, WRITE.settings);
      await saveRodonaves(db, actor, request.body, box);
      forgetQuotes(state, actor.clientId, 'rodonaves');
      ctx.changed(actor.clientId, 'shipping-carrier');
      return readRodonaves(actor.clientId);
    });
  };
}
