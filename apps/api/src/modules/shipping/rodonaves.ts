import { maskCep } from '@balcao/core/cep';
import type { FreightOption } from '@balcao/core/shipping';
import { CarrierError, fetchJson, parseMoneyCents } from './carrierHttp.ts';

/**
 * Rodonaves (RTE) adapter (INTEGRATIONS.md): two hosts, each with its own token (`POST /token`,
 * form `grant_type=password&username&password&auth_type`). The city host finds the city of a CEP
 * (`GET /api/v1/busca-por-cep?zipCode=`); the quote host simulates (`POST /api/v1/simula-cotacao`).
 * An expired token answers `{"Message":"Authorization has been denied for this request."}`: a new
 * token for that host, then the request once more.
 */

type RodonavesCredentials = { username: string; password: string; authType: 'dev' | 'prod' };
export type RodonavesPack = {
  amount: number;
  weightKg: number;
  lengthCm: number;
  heightCm: number;
  widthCm: number;
};
type RodonavesRequest = {
  fromZipCode: string;
  toZipCode: string;
  taxpayerId: string;
  invoiceValueCents: number;
  packs: RodonavesPack[];
};

const DENIED = 'Authorization has been denied for this request.';

/** Tokens per client and host, in memory (a token lives minutes to hours; a restart asks again). */
export type TokenCache = Map<string, { token: string; expiresAt: number }>;

function isDenied(status: number, body: unknown): boolean {
  const message = (body as { Message?: string } | null)?.Message;
  return status === 401 || message === DENIED;
}

async function requestToken(host: string, credentials: RodonavesCredentials, signal: AbortSignal) {
  const { status, body } = await fetchJson(`${host}/token`, 'A Rodonaves', {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: credentials.username,
      password: credentials.password,
      auth_type: credentials.authType,
    }).toString(),
    signal,
  });
  const b = body as { access_token?: string; expires_in?: number; error_description?: string } | null;
  if (status >= 500) throw new CarrierError('unavailable', `A Rodonaves respondeu com erro (${status}).`);
  if (status >= 400 || !b?.access_token)
    throw new CarrierError(
      'auth',
      `A Rodonaves recusou o usuário e a senha${b?.error_description ? ` (${b.error_description})` : ''}.`,
    );
  return { token: b.access_token, expiresInSeconds: b.expires_in ?? 3600 };
}

type Call = { status: number; body: unknown };

/** A call with the host's token: a cached one, else a new one; once more with a new one when denied. */
async function withToken(
  cache: TokenCache,
  cacheKey: string,
  host: string,
  credentials: RodonavesCredentials,
  tokenTimeoutMs: number,
  signal: AbortSignal,
  call: (token: string) => Promise<Call>,
): Promise<Call> {
  const fresh = async () => {
    const { token, expiresInSeconds } = await requestToken(
      host,
      credentials,
      AbortSignal.any([signal, AbortSignal.timeout(tokenTimeoutMs)]),
    );
    // A minute of margin before the carrier's expiry.
    cache.set(cacheKey, { token, expiresAt: Date.now() + Math.max(0, expiresInSeconds - 60) * 1000 });
    return token;
  };
  const cached = cache.get(cacheKey);
  const token = cached && cached.expiresAt > Date.now() ? cached.token : await fresh();
  const first = await call(token);
  if (!isDenied(first.status, first.body)) return first;
  cache.delete(cacheKey);
  const second = await call(await fresh());
  if (isDenied(second.status, second.body))
    throw new CarrierError(
      'auth',
      'A Rodonaves negou o acesso com um token novo. Confira o usuário e a senha.',
    );
  return second;
}

export async function rodonavesQuote(options: {
  hosts: { city: string; quote: string };
  credentials: RodonavesCredentials;
  request: RodonavesRequest;
  cache: TokenCache;
  clientId: number;
  tokenTimeoutMs: number;
  signal: AbortSignal;
}): Promise<FreightOption[]> {
  const { hosts, credentials, request, cache, clientId, signal } = options;
  const cityCall = (cep: string) =>
    withToken(
      cache,
      `${clientId}|${hosts.city}`,
      hosts.city,
      credentials,
      options.tokenTimeoutMs,
      signal,
      (token) =>
        fetchJson(`${hosts.city}/api/v1/busca-por-cep?zipCode=${cep}`, 'A Rodonaves', {
          headers: { accept: 'application/json', authorization: `Bearer ${token}` },
          signal,
        }),
    );
  const cityOf = async (cep: string) => {
    const { status, body } = await cityCall(cep);
    if (status >= 500) throw new CarrierError('unavailable', `A Rodonaves respondeu com erro (${status}).`);
    const city = body as { CityId?: number; CityDescription?: string } | { Message?: string }[] | null;
    if (Array.isArray(city) || status >= 400 || !city || typeof city.CityId !== 'number')
      throw new CarrierError('rejected', `A Rodonaves não encontrou o CEP ${maskCep(cep)}.`);
    return city.CityId;
  };
  // One after the other: the first lookup gets the host's token, the second reuses it.
  const originCityId = await cityOf(request.fromZipCode);
  const destinationCityId = await cityOf(request.toZipCode);
  const totalWeight = Math.round(request.packs.reduce((s, p) => s + p.weightKg * p.amount, 0) * 1000) / 1000;
  const body = {
    OriginZipCode: request.fromZipCode,
    OriginCityId: originCityId,
    DestinationZipCode: request.toZipCode,
    DestinationCityId: destinationCityId,
    TotalWeight: totalWeight,
    TotalPackages: request.packs.reduce((s, p) => s + p.amount, 0),
    EletronicInvoiceValue: request.invoiceValueCents / 100,
    CustomerTaxIdRegistration: request.taxpayerId,
    Packs: request.packs.map((p) => ({
      AmountPackages: p.amount,
      Weight: p.weightKg,
      Length: p.lengthCm,
      Height: p.heightCm,
      Width: p.widthCm,
    })),
  };
  const quote = await withToken(
    cache,
    `${clientId}|${hosts.quote}`,
    hosts.quote,
    credentials,
    options.tokenTimeoutMs,
    signal,
    (token) =>
      fetchJson(`${hosts.quote}/api/v1/simula-cotacao`, 'A Rodonaves', {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
        signal,
      }),
  );
  if (quote.status >= 500)
    throw new CarrierError('unavailable', `A Rodonaves respondeu com erro (${quote.status}).`);
  const answer = quote.body as { Value?: number; DeliveryTime?: number; Message?: string } | null;
  const price = parseMoneyCents(answer?.Value);
  if (quote.status >= 400 || price === null || price === 0)
    throw new CarrierError(
      'rejected',
      `A Rodonaves não cotou este envio${answer?.Message ? `: ${answer.Message}` : '.'}`,
    );
  const days = typeof answer?.DeliveryTime === 'number' ? answer.DeliveryTime : null;
  return [
    {
      carrier: 'rodonaves',
      serviceId: 'rodonaves',
      serviceName: 'Rodoviário',
      companyName: 'Rodonaves',
      companyPicture: null,
      priceCents: price,
      deliveryMinDays: days,
      deliveryMaxDays: days,
      estimate: false,
      error: null,
    },
  ];
}
