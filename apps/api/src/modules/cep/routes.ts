import { CEP_INVALID, CEP_NOT_FOUND, CEP_UNAVAILABLE, isValidCep, normalizeCep } from '@balcao/core/cep';
import { cepApi } from '@balcao/core/endpoints/cep';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { invalid, notFound, unavailable } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';
import { CepUnavailableError, viaCep } from './adapter.ts';

/** The handler of `cepApi.get`: the address, 400 for a bad format, 404 unknown, 503 unreachable. */
export function cepRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const lookup = viaCep(ctx.config.cep);

    route(app, cepApi.get, async (request) => {
      const { cep } = request.params;
      if (!isValidCep(cep)) throw invalid(CEP_INVALID);
      try {
        const address = await lookup.find(normalizeCep(cep));
        if (!address) throw notFound(CEP_NOT_FOUND);
        return address;
      } catch (error) {
        if (error instanceof CepUnavailableError) {
          request.log.warn({ err: error }, 'CEP lookup failed');
          throw unavailable(CEP_UNAVAILABLE);
        }
        throw error;
      }
    });
  };
}
