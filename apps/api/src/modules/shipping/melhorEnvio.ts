import type { FreightOption, PackageDims } from '@balcao/core/shipping';
import { logRemoteError } from '../../lib/outbound.ts';
import { CarrierError, carrierFailure, fetchJson, parseMoneyCents } from './carrierHttp.ts';

/**
 * Melhor Envio adapter (INTEGRATIONS.md): `POST {base}/me/shipment/calculate` with a Bearer token and
 * the User-Agent "AppName (contact)"; OAuth2 on the site host (`{site}/oauth/token`, form-encoded).
 * 401 `{"message":"Unauthenticated."}` is `CarrierError('auth')`: the caller refreshes and retries once.
 */

export type MelhorEnvioItem = {
  id: string;
  widthCm: number;
  heightCm: number;
  lengthCm: number;
  weightKg: number;
  unitValueCents: number;
  quantity: number;
};

type MelhorEnvioRequest = {
  fromZipCode: string;
  toZipCode: string;
  services: number[];
  /** Products xor one package, never both. */
  products?: MelhorEnvioItem[];
  package?: PackageDims;
  insuranceCents: number;
};

type ServiceEntry = {
  id?: number;
  name?: string;
  price?: string | number;
  custom_price?: string | number;
  delivery_time?: number;
  delivery_range?: { min?: number; max?: number };
  custom_delivery_time?: number;
  custom_delivery_range?: { min?: number; max?: number };
  company?: { id?: number; name?: string; picture?: string };
  error?: string;
};

const reais = (cents: number) => Math.round(cents) / 100;

function calculateBody(request: MelhorEnvioRequest) {
  const body: Record<string, unknown> = {
    from: { postal_code: request.fromZipCode },
    to: { postal_code: request.toZipCode },
    services: request.services.join(','),
    options: { receipt: false, own_hand: false, collect: false },
  };
  if (request.products?.length) {
    body.products = request.products.map((p) => ({
      id: p.id,
      width: p.widthCm,
      height: p.heightCm,
      length: p.lengthCm,
      weight: p.weightKg,
      insurance_value: reais(p.unitValueCents),
      quantity: p.quantity,
    }));
  } else if (request.package) {
    body.package = {
      height: request.package.heightCm,
      width: request.package.widthCm,
      length: request.package.lengthCm,
      weight: request.package.weightKg,
    };
    body.options = { ...(body.options as object), insurance_value: reais(request.insuranceCents) };
  }
  return body;
}

const ME = 'Melhor Envio';
const ME_DOWN = 'O Melhor Envio está indisponível no momento.';
const ME_REJECTED = 'O Melhor Envio recusou a cotação. Confira os CEPs, as medidas e o peso.';
/** A service that cannot quote: our words, whatever the carrier wrote (it goes to the log). */
const SERVICE_CANNOT_QUOTE = 'Transportadora não atende este trecho.';

/** The answer entries as options: priced services, services with their error; others dropped. */
function toOptions(entries: ServiceEntry[]): FreightOption[] {
  const options: FreightOption[] = [];
  for (const e of entries) {
    const base = {
      carrier: 'melhor_envio' as const,
      serviceId: String(e.id ?? ''),
      serviceName: e.name ?? '',
      companyName: e.company?.name ?? '',
      companyPicture: e.company?.picture ?? null,
      estimate: false,
    };
    if (e.error) {
      logRemoteError(ME, { service: e.id, error: String(e.error).slice(0, 300) });
      options.push({
        ...base,
        priceCents: null,
        deliveryMinDays: null,
        deliveryMaxDays: null,
        error: SERVICE_CANNOT_QUOTE,
      });
      continue;
    }
    const price = parseMoneyCents(e.custom_price ?? e.price);
    if (price === null) continue;
    const range = e.custom_delivery_range ?? e.delivery_range;
    const days = e.custom_delivery_time ?? e.delivery_time ?? null;
    options.push({
      ...base,
      priceCents: price,
      deliveryMinDays: range?.min ?? days,
      deliveryMaxDays: range?.max ?? days,
      error: null,
    });
  }
  return options;
}

export async function melhorEnvioCalculate(
  base: string,
  token: string,
  userAgent: string,
  request: MelhorEnvioRequest,
  signal: AbortSignal,
): Promise<FreightOption[]> {
  const { status, body } = await fetchJson(`${base}/me/shipment/calculate`, 'Melhor Envio', {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'user-agent': userAgent,
    },
    body: JSON.stringify(calculateBody(request)),
    signal,
  });
  if (status === 401) throw new CarrierError('auth', 'O Melhor Envio recusou o token de acesso.');
  if (status === 422 || status === 400) throw carrierFailure('rejected', ME_REJECTED, ME, status, body);
  if (status >= 400) throw carrierFailure('unavailable', ME_DOWN, ME, status, body);
  if (!Array.isArray(body)) {
    // A single entry answered as an object (one service asked).
    if (body && typeof body === 'object' && 'id' in body) return toOptions([body as ServiceEntry]);
    throw carrierFailure('unavailable', ME_DOWN, ME, status, body);
  }
  return toOptions(body as ServiceEntry[]);
}

type OAuthTokens = { accessToken: string; refreshToken?: string; expiresInSeconds?: number };

/** `POST {site}/oauth/token`, form-encoded: an authorization code or a refresh token -> new tokens. */
export async function melhorEnvioToken(
  site: string,
  userAgent: string,
  form: Record<string, string>,
  signal: AbortSignal,
): Promise<OAuthTokens> {
  const { status, body } = await fetchJson(`${site}/oauth/token`, 'Melhor Envio', {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': userAgent,
    },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const b = body as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
  } | null;
  if (status >= 500) throw carrierFailure('unavailable', ME_DOWN, ME, status, body);
  if (status >= 400 || !b?.access_token)
    throw carrierFailure('auth', 'O Melhor Envio recusou a autorização.', ME, status, body);
  return { accessToken: b.access_token, refreshToken: b.refresh_token, expiresInSeconds: b.expires_in };
}
