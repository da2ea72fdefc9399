import { maskCep } from '@balcao/core/cep';
import type { FreightOption } from '@balcao/core/shipping';
import { CarrierError, carrierFailure, fetchJson, parseMoneyCents } from './carrierHttp.ts';

/**
 * Rodonaves (RTE) adapter (INTEGRATIONS.md): two hosts, each with its own token (`POST /token`,
 * form `grant_type=password&username&password&auth_type`). The city host finds the city of a CEP
 * (`GET /api/v1/busca-por-cep?zipCode=`); the quote host simulates (`POST /api/v1/simula-cotacao`).
 * An expired token answers `{"Message":"Authorization has been denied for this request."}`: a new
 * token for that host, then the request once more. Each call has its own budget (token and city
 * lookups ~2 s, the quote up to 3 s: INTEGRATIONS.md), all inside the carrier's overall deadline
 * (`signal`); tokens are cached per shop and host until shortly before they expire. A CEP the carrier
 * does not serve (`CityAttended: false`, or `[{"Message":"RTE não atende CEP (...)"}]`) is "not
 * served", not a failure: no estimate is offered for it.
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
const RTE = 'A Rodonaves';
const RTE_DOWN = 'A Rodonaves está indisponível no momento.';

/** Tokens per client and host, in memory (a token lives minutes to hours; a restart asks again). */
export type TokenCache = Map<string, { token: string; expiresAt: number }>;

/** Each call's own time budget (ms), inside the overall deadline. */
type Budgets = { tokenMs: number; quoteMs: number };

const within = (signal: AbortSignal, ms: number) => AbortSignal.any([signal, AbortSignal.timeout(ms)]);

function isDenied(status: number, body: unknown): boolean {
  const message = (body as { Message?: string } | null)?.Message;
  return status === 401 || message === DENIED;
}

/** The "RTE não atende CEP (...)" answer (an array of messages, or one), in any case. */
function notServedAnswer(body: unknown): boolean {
  const messages = (Array.isArray(body) ? body : [body]).map((m) =>
    String((m as { Message?: unknown } | null)?.Message ?? ''),
  );
  return messages.some((m) => /n[ãa]o atende/i.test(m));
}

const notServed = (cep: string) =>
  new CarrierError('not_served', `A Rodonaves não atende o CEP ${maskCep(cep)}.`);

async function requestToken(host: string, credentials: RodonavesCredentials, signal: AbortSignal) {
  const { status, body } = await fetchJson(`${host}/token`, RTE, {
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
  const b = body as { access_token?: string; expires_in?: number } | null;
  if (status >= 500) throw carrierFailure('unavailable', RTE_DOWN, RTE, status, body);
  if (status >= 400 || !b?.access_token)
    throw carrierFailure('auth', 'A Rodonaves recusou o usuário e a senha.', RTE, status, body);
  return { token: b.access_token, expiresInSeconds: b.expires_in ?? 3600 };
}

type Call = { status: number; body: unknown };

/** A call with the host's token: a cached one, else a new one; once more with a new one when denied. */
async function withToken(
  cache: TokenCache,
  cacheKey: string,
  host: string,
  credentials: RodonavesCredentials,
  tokenMs: number,
  signal: AbortSignal,
  call: (token: string) => Promise<Call>,
): Promise<Call> {
  const fresh = async () => {
    const { token, expiresInSeconds } = await requestToken(host, credentials, within(signal, tokenMs));
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
  budgets: Budgets;
  /** The overall deadline of the carrier. */
  signal: AbortSignal;
}): Promise<FreightOption[]> {
  const { hosts, credentials, request, cache, clientId, budgets, signal } = options;
  const cityCall = (cep: string) =>
    withToken(cache, `${clientId}|${hosts.city}`, hosts.city, credentials, budgets.tokenMs, signal, (token) =>
      fetchJson(`${hosts.city}/api/v1/busca-por-cep?zipCode=${cep}`, RTE, {
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        signal: within(signal, budgets.tokenMs),
      }),
    );
  const cityOf = async (cep: string) => {
    const { status, body } = await cityCall(cep);
    if (status >= 500) throw carrierFailure('unavailable', RTE_DOWN, RTE, status, body);
    if (notServedAnswer(body)) throw notServed(cep);
    const city = body as { CityId?: number; CityAttended?: boolean } | unknown[] | null;
    if (Array.isArray(city) || status >= 400 || !city || typeof city.CityId !== 'number')
      throw new CarrierError('rejected', `A Rodonaves não encontrou o CEP ${maskCep(cep)}.`);
    if (city.CityAttended === false) throw notServed(cep);
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
    budgets.tokenMs,
    signal,
    (token) =>
      fetchJson(`${hosts.quote}/api/v1/simula-cotacao`, RTE, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
        signal: within(signal, budgets.quoteMs),
      }),
  );
  if (quote.status >= 500) throw carrierFailure('unavailable', RTE_DOWN, RTE, quote.status, quote.body);
  if (notServedAnswer(quote.body)) throw notServed(request.toZipCode);
  const answer = quote.body as { Value?: number; DeliveryTime?: number } | null;
  const price = parseMoneyCents(answer?.Value);
  if (quote.status >= 400 || price === null || price === 0)
    throw carrierFailure(
      'rejected',
      'A Rodonaves não cotou este envio. Confira o CNPJ, as medidas e o peso.',
      RTE,
      quote.status,
      quote.body,
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
