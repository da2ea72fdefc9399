import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fakes of the freight services (INTEGRATIONS.md), started on 127.0.0.1 by the API tests and the
 * browser tests: Melhor Envio (calculate + OAuth2), Rodonaves (two hosts, each with its own tokens) and
 * a routing service (Nominatim geocoding + OSRM route). Each follows the real contract, error shapes
 * included, and can be switched to "down" (5xx) or "slow" (answers after the client's timeout).
 */

export type FakeMode = 'ok' | 'down' | 'slow';

type Started = { url: string; server: Server; close: () => Promise<void> };

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port = 0,
): Promise<Started> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const token = () => randomBytes(16).toString('hex');

// ---------------------------------------------------------------------------------------------------
// Melhor Envio

export const ME_COMPANIES: Record<
  number,
  { name: string; company: { id: number; name: string; picture: string } }
> = {
  1: { name: 'PAC', company: { id: 1, name: 'Correios', picture: 'https://example.test/correios.png' } },
  2: { name: 'SEDEX', company: { id: 1, name: 'Correios', picture: 'https://example.test/correios.png' } },
  3: { name: '.Package', company: { id: 2, name: 'Jadlog', picture: 'https://example.test/jadlog.png' } },
  4: { name: '.Com', company: { id: 2, name: 'Jadlog', picture: 'https://example.test/jadlog.png' } },
  17: {
    name: 'Mini Envios',
    company: { id: 1, name: 'Correios', picture: 'https://example.test/correios.png' },
  },
  31: { name: 'Express', company: { id: 14, name: 'Loggi', picture: 'https://example.test/loggi.png' } },
};

/** Destinations starting with these digits are not served by Jadlog and Loggi (per-service error). */
export const ME_FAR_PREFIX = '69';

export type FakeMelhorEnvio = {
  /** The API base: `{url}/api/v2`. */
  apiUrl: string;
  url: string;
  clientId: string;
  clientSecret: string;
  mode: FakeMode;
  slowMs: number;
  /** Issues a valid access token (a pasted panel token) and returns it. */
  issueToken(): string;
  /** Issues an OAuth pair; the access token expires in `expiresIn` seconds (the fake does not expire it). */
  issueOAuth(): { accessToken: string; refreshToken: string };
  /** Makes an access token answer 401 from now on. */
  revoke(accessToken: string): void;
  /** Every access and refresh token stops working (the shop must authorize again). */
  revokeAll(): void;
  calculations: { authorization: string; userAgent: string; body: Record<string, unknown>; at: number }[];
  tokenRequests: Record<string, string>[];
  /** When each request arrived (before any slow-mode delay). */
  arrivals: number[];
  close(): Promise<void>;
};

export async function startFakeMelhorEnvio(port = 0): Promise<FakeMelhorEnvio> {
  const access = new Set<string>();
  const refresh = new Set<string>();
  const codes = new Map<string, string>(); // code -> redirect_uri
  const fake = {
    clientId: '4321',
    clientSecret: 'fake-client-secret',
    mode: 'ok' as FakeMode,
    slowMs: 5_000,
    calculations: [] as FakeMelhorEnvio['calculations'],
    tokenRequests: [] as Record<string, string>[],
    arrivals: [] as number[],
  };
  const oauthPair = () => {
    const pair = { accessToken: token(), refreshToken: token() };
    access.add(pair.accessToken);
    refresh.add(pair.refreshToken);
    return pair;
  };

  const started = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    fake.arrivals.push(Date.now());
    if (fake.mode === 'slow') await sleep(fake.slowMs);
    if (fake.mode === 'down') return json(res, 503, { message: 'Service Unavailable' });

    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      // The user "approves" at once: back to redirect_uri with a code and the same state.
      const redirect = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== fake.clientId || !redirect)
        return json(res, 400, { error: 'invalid_client', message: 'Client authentication failed' });
      const code = token();
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: back.toString() }).end();
    }

    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      if (!(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded'))
        return json(res, 400, {
          error: 'unsupported_grant_type',
          message: 'The authorization grant type is not supported.',
        });
      const form = Object.fromEntries(new URLSearchParams(raw));
      fake.tokenRequests.push(form);
      if (form.client_id !== fake.clientId || form.client_secret !== fake.clientSecret)
        return json(res, 401, { error: 'invalid_client', message: 'Client authentication failed' });
      if (form.grant_type === 'authorization_code') {
        const redirect = codes.get(form.code ?? '');
        if (!redirect || redirect !== form.redirect_uri)
          return json(res, 400, { error: 'invalid_grant', message: 'The authorization code is invalid.' });
        codes.delete(form.code);
      } else if (form.grant_type === 'refresh_token') {
        if (!refresh.has(form.refresh_token ?? ''))
          return json(res, 401, { error: 'invalid_grant', message: 'The refresh token is invalid.' });
        refresh.delete(form.refresh_token);
      } else {
        return json(res, 400, {
          error: 'unsupported_grant_type',
          message: 'The authorization grant type is not supported.',
        });
      }
      const pair = oauthPair();
      return json(res, 200, {
        token_type: 'Bearer',
        expires_in: 2_592_000,
        access_token: pair.accessToken,
        refresh_token: pair.refreshToken,
      });
    }

    if (req.method === 'POST' && url.pathname === '/api/v2/me/shipment/calculate') {
      const authorization = req.headers.authorization ?? '';
      const bearer = authorization.replace(/^Bearer /, '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        return json(res, 422, {
          message: 'The given data was invalid.',
          errors: { from: ['JSON inválido'] },
        });
      }
      fake.calculations.push({
        authorization,
        userAgent: String(req.headers['user-agent'] ?? ''),
        body,
        at: Date.now(),
      });
      if (!access.has(bearer)) return json(res, 401, { message: 'Unauthenticated.' });
      const from = (body.from as { postal_code?: string } | undefined)?.postal_code ?? '';
      const to = (body.to as { postal_code?: string } | undefined)?.postal_code ?? '';
      const errors: Record<string, string[]> = {};
      if (!/^\d{8}$/.test(from))
        errors['from.postal_code'] = ['O campo from.postal_code deve ter 8 dígitos.'];
      if (!/^\d{8}$/.test(to)) errors['to.postal_code'] = ['O campo to.postal_code deve ter 8 dígitos.'];
      const products = body.products as { weight: number; quantity: number }[] | undefined;
      const pack = (body.package ?? (body.volumes as unknown[] | undefined)?.[0]) as
        | { weight: number }
        | undefined;
      if (products && pack) errors.products = ['Products and volumes cannot be defined together'];
      if (!products && !pack)
        errors.products = ['O campo products é obrigatório quando package não está presente.'];
      if (Object.keys(errors).length)
        return json(res, 422, { message: 'The given data was invalid.', errors });
      const weight = products ? products.reduce((s, p) => s + p.weight * p.quantity, 0) : (pack?.weight ?? 0);
      const services = String(body.services ?? '1,2')
        .split(',')
        .map(Number)
        .filter((id) => ME_COMPANIES[id]);
      const far = to.startsWith(ME_FAR_PREFIX);
      return json(
        res,
        200,
        services.map((id) => {
          const { name, company } = ME_COMPANIES[id];
          if (far && company.name !== 'Correios')
            return { id, name, company, error: 'Transportadora não atende este trecho.' };
          // Price: R$ 10 + R$ 5 per kg + R$ 3 per service id; the panel adds 10% (custom_price).
          const price = (10 + 5 * weight + 3 * id).toFixed(2);
          const custom = (Number(price) * 1.1).toFixed(2);
          const days = id === 2 ? 1 : 5;
          return {
            id,
            name,
            price,
            custom_price: custom,
            discount: '0.00',
            currency: 'R$',
            delivery_time: days,
            delivery_range: { min: days, max: days + 2 },
            custom_delivery_time: days + 1,
            custom_delivery_range: { min: days + 1, max: days + 3 },
            packages: [
              {
                price,
                discount: '0.00',
                format: 'box',
                weight: weight.toFixed(2),
                insurance_value: '0.00',
                dimensions: { height: 10, width: 15, length: 20 },
              },
            ],
            additional_services: { receipt: false, own_hand: false, collect: false },
            additional: { unit: { price: 0, delivery: 0 } },
            company,
          };
        }),
      );
    }
    return json(res, 404, { message: 'Not Found' });
  }, port);

  return Object.assign(fake, {
    url: started.url,
    apiUrl: `${started.url}/api/v2`,
    issueToken: () => {
      const t = token();
      access.add(t);
      return t;
    },
    issueOAuth: oauthPair,
    revoke: (t: string) => {
      access.delete(t);
    },
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    close: started.close,
  });
}

// ---------------------------------------------------------------------------------------------------
// Rodonaves

export const RTE_USER = { username: 'loja-rte', password: 'senha-rte' };
/** CEPs the fake's city host knows (CityId, city, UF, whether RTE serves it). */
export const RTE_CITIES: Record<
  string,
  { CityId: number; CityDescription: string; UF: string; CityAttended?: boolean }
> = {
  '01001000': { CityId: 9668, CityDescription: 'SAO PAULO', UF: 'SP' },
  '30130010': { CityId: 2754, CityDescription: 'BELO HORIZONTE', UF: 'MG' },
  '80010010': { CityId: 7535, CityDescription: 'CURITIBA', UF: 'PR' },
  '06010000': { CityId: 9201, CityDescription: 'OSASCO', UF: 'SP' },
  // A city the carrier knows and does not serve.
  '69900970': { CityId: 1200, CityDescription: 'RIO BRANCO', UF: 'AC', CityAttended: false },
};
/** CEPs answered as the real service does for a region it does not serve at all. */
export const RTE_NOT_SERVED = ['69301000'];
const DENIED = { Message: 'Authorization has been denied for this request.' };

export type FakeRodonaves = {
  cityUrl: string;
  quoteUrl: string;
  mode: FakeMode;
  slowMs: number;
  /** Per-call delays in ms (each call's own time), applied in 'ok' mode. */
  delays: { token: number; city: number; quote: number };
  /** Token requests per host ('city' | 'quote'). */
  tokenRequests: { host: 'city' | 'quote'; form: Record<string, string>; at: number }[];
  quotes: Record<string, unknown>[];
  /** Every token issued so far stops working (as when they expire). */
  expireTokens(): void;
  close(): Promise<void>;
};

export async function startFakeRodonaves(): Promise<FakeRodonaves> {
  const tokens = { city: new Set<string>(), quote: new Set<string>() };
  const fake = {
    mode: 'ok' as FakeMode,
    slowMs: 5_000,
    delays: { token: 0, city: 0, quote: 0 },
    tokenRequests: [] as FakeRodonaves['tokenRequests'],
    quotes: [] as Record<string, unknown>[],
  };

  const handler = (host: 'city' | 'quote') => async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    if (url.pathname === '/token')
      fake.tokenRequests.push({ host, form: Object.fromEntries(new URLSearchParams(raw)), at: Date.now() });
    if (fake.mode === 'slow') await sleep(fake.slowMs);
    if (fake.mode === 'down') return json(res, 500, { Message: 'An error has occurred.' });
    const delay =
      url.pathname === '/token'
        ? fake.delays.token
        : url.pathname === '/api/v1/simula-cotacao'
          ? fake.delays.quote
          : fake.delays.city;
    if (delay) await sleep(delay);
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = Object.fromEntries(new URLSearchParams(raw));
      const authType = (form.auth_type ?? '').toLowerCase();
      if (
        form.grant_type !== 'password' ||
        form.username !== RTE_USER.username ||
        form.password !== RTE_USER.password ||
        !['dev', 'prod'].includes(authType)
      )
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'O usuário ou a senha estão incorretos.',
        });
      const t = token();
      tokens[host].add(t);
      return json(res, 200, { access_token: t, token_type: 'bearer', expires_in: 3599 });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /i, '');
    if (!tokens[host].has(bearer)) return json(res, 401, DENIED);
    if (host === 'city' && req.method === 'GET' && url.pathname === '/api/v1/busca-por-cep') {
      const cep = url.searchParams.get('zipCode') ?? '';
      const city = RTE_CITIES[cep];
      if (RTE_NOT_SERVED.includes(cep))
        return json(res, 200, [{ PropertyName: '', Message: `RTE não atende CEP (${cep})` }]);
      if (!city) return json(res, 200, [{ Message: 'CEP não encontrado' }]);
      return json(res, 200, {
        CityId: city.CityId,
        CityDescription: city.CityDescription,
        UnitFederation: { Description: city.UF },
        District: 'CENTRO',
        Street: 'RUA TESTE',
        ZipCode: cep,
        CityAttended: city.CityAttended ?? true,
      });
    }
    if (host === 'city' && req.method === 'POST' && url.pathname === '/api/v1/prazo-entrega') {
      return json(res, 200, { DeliveryTime: 3 });
    }
    if (host === 'quote' && req.method === 'POST' && url.pathname === '/api/v1/simula-cotacao') {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      fake.quotes.push(body);
      const weight = Number(body.TotalWeight ?? 0);
      if (!body.CustomerTaxIdRegistration)
        return json(res, 400, { Message: 'CustomerTaxIdRegistration é obrigatório.' });
      // R$ 80 + R$ 4,50 per kg + 0,3% of the invoice.
      const value =
        Math.round((80 + 4.5 * weight + 0.003 * Number(body.EletronicInvoiceValue ?? 0)) * 100) / 100;
      return json(res, 200, { Value: value, DeliveryTime: 4, ProtocolNumber: '12345678', Message: null });
    }
    return json(res, 404, { Message: 'No HTTP resource was found that matches the request URI.' });
  };
  const city = await listen(handler('city'));
  const quote = await listen(handler('quote'));
  return Object.assign(fake, {
    cityUrl: city.url,
    quoteUrl: quote.url,
    expireTokens: () => {
      tokens.city.clear();
      tokens.quote.clear();
    },
    close: async () => {
      await Promise.all([city.close(), quote.close()]);
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Routing (Nominatim + OSRM contracts)

/**
 * Known places: by postal code, else by street. The fake's road distance is not geographic: it is
 * (|Δlat| + |Δlon|) × 100 km, so tests can pick points at exact distances.
 */
export const ROUTING_PLACES: { postalcode?: string; street?: string; lat: number; lon: number }[] = [
  { postalcode: '01001000', lat: -23.55, lon: -46.63 },
  { postalcode: '01310100', lat: -23.56, lon: -46.65 },
  { postalcode: '04001000', lat: -23.6, lon: -46.7 },
  { street: '100 Rua das Flores', lat: -23.57, lon: -46.64 },
];

export type FakeRouting = { url: string; mode: FakeMode; requests: string[]; close(): Promise<void> };

export async function startFakeRouting(): Promise<FakeRouting> {
  const fake = { mode: 'ok' as FakeMode, requests: [] as string[] };
  const started = await listen(async (req, res) => {
    fake.requests.push(req.url ?? '');
    if (fake.mode === 'down') return json(res, 503, { code: 'Error', message: 'Service unavailable' });
    if (fake.mode === 'slow') await sleep(5_000);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/search') {
      const postal = url.searchParams.get('postalcode');
      const street = url.searchParams.get('street');
      const place =
        ROUTING_PLACES.find((p) => street && p.street === street) ??
        ROUTING_PLACES.find((p) => postal && p.postalcode === postal);
      return json(
        res,
        200,
        place
          ? [{ place_id: 1, lat: String(place.lat), lon: String(place.lon), display_name: 'Lugar, Brasil' }]
          : [],
      );
    }
    const m = /^\/route\/v1\/driving\/(-?[\d.]+),(-?[\d.]+);(-?[\d.]+),(-?[\d.]+)$/.exec(url.pathname);
    if (m) {
      const [lon1, lat1, lon2, lat2] = m.slice(1).map(Number);
      const distance = Math.round((Math.abs(lat1 - lat2) + Math.abs(lon1 - lon2)) * 100_000);
      return json(res, 200, {
        code: 'Ok',
        routes: [{ distance, duration: distance / 10, legs: [] }],
        waypoints: [],
      });
    }
    return json(res, 400, { code: 'InvalidUrl', message: 'URL string malformed close to position 1' });
  });
  return Object.assign(fake, { url: started.url, close: started.close });
}
