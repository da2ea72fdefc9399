import { cepAddressSchema } from '../cep.ts';
import { endpoint } from '../contract.ts';
import { BACKOFFICE } from '../routes.ts';
import { z } from '../zod.ts';

/** `/cep/:cep`: the CEP as typed (checked by the handler: 400 "CEP inválido"). */
export const cepParams = z.object({ cep: z.string() });

/**
 * /v1/cep/{cep}: the normalized address of a CEP. 400 "CEP inválido" for a bad format, 404 "CEP não
 * encontrado", 503 with a message to type the address when the service is unreachable.
 */
export const cepApi = {
  get: endpoint({
    method: 'GET',
    path: '/cep/:cep',
    resource: 'cep',
    access: BACKOFFICE,
    summary: 'Address of a CEP (ViaCEP contract); 503 when the service cannot be reached',
    params: cepParams,
    response: { 200: cepAddressSchema },
  }),
} as const;
