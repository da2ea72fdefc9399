import {
  CEP_INVALID,
  CEP_NOT_FOUND,
  CEP_UNAVAILABLE,
  cepAddressSchema,
  isValidCep,
  normalizeCep,
} from '@balcao/core/cep';
import { BACKOFFICE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { invalid, notFound, unavailable } from '../../errors.ts';
import { CepUnavailableError, viaCep } from './adapter.ts';

/**
 * `GET /v1/cep/{cep}`: the normalized address of a CEP. 400 "CEP inválido" for a bad format,
 * 404 "CEP não encontrado", 503 with a message to type the address when the service is unreachable.
 */
export function cepRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const lookup = viaCep(ctx.config.cep);

    app.get(
      '/cep/:cep',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags: ['cep'],
          summary: 'Address of a CEP (ViaCEP contract); 503 when the service cannot be reached',
          params: z.object({ cep: z.string() }),
          response: { 200: cepAddressSchema },
        },
      },
      async (request) => {
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
      },
    );
  };
}
