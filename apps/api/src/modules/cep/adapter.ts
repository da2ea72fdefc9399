import type { CepAddress } from '@balcao/core/cep';
import { outboundFetch } from '../../lib/outbound.ts';

/** The CEP service could not answer (offline, timeout, 5xx, bad body). */
export class CepUnavailableError extends Error {}

type CepLookup = {
  /** The address of an 8-digit CEP; null when the CEP does not exist. Throws CepUnavailableError. */
  find(cep: string): Promise<CepAddress | null>;
};

type ViaCepBody = {
  cep?: string;
  logradouro?: string;
  complemento?: string;
  bairro?: string;
  localidade?: string;
  uf?: string;
  ibge?: string;
  erro?: boolean | string;
};

/**
 * ViaCEP adapter (INTEGRATIONS.md): `GET {base}/ws/{8 digits}/json/`; not found is 200 with
 * `erro: true` or `"true"`. Successful answers are cached in memory (a CEP's street does not change).
 */
export function viaCep(options: { baseUrl: string; timeoutMs: number; cacheSize?: number }): CepLookup {
  const base = options.baseUrl.replace(/\/+$/, '');
  const cache = new Map<string, CepAddress>();
  const cacheSize = options.cacheSize ?? 2000;
  return {
    async find(cep) {
      const hit = cache.get(cep);
      if (hit) return hit;
      let response: Response;
      try {
        response = await outboundFetch(`${base}/ws/${cep}/json/`, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new CepUnavailableError(`CEP service unreachable: ${(error as Error).message}`);
      }
      // ViaCEP answers 400 for a malformed CEP: we only send 8 digits, so treat it as "does not exist".
      if (response.status === 400) return null;
      if (!response.ok) throw new CepUnavailableError(`CEP service answered ${response.status}`);
      let body: ViaCepBody;
      try {
        body = (await response.json()) as ViaCepBody;
      } catch {
        throw new CepUnavailableError('CEP service answered a body that is not JSON');
      }
      if (body.erro === true || body.erro === 'true') return null;
      if (!body.localidade || !body.uf) throw new CepUnavailableError('CEP service answered without city/UF');
      const address: CepAddress = {
        zipCode: (body.cep ?? cep).replace(/\D/g, ''),
        street: body.logradouro ?? '',
        complement: body.complemento ?? '',
        neighborhood: body.bairro ?? '',
        city: body.localidade,
        state: body.uf.toUpperCase(),
        ibge: body.ibge ?? '',
      };
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(cep, address);
      return address;
    },
  };
}
