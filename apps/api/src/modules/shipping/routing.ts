import { normalizeCep } from '@balcao/core/cep';
import { outboundFetch } from '../../lib/outbound.ts';

/** An address to place on the map (what a delivery address holds). */
export type RoutableAddress = {
  zipCode?: string;
  street?: string;
  number?: string;
  neighborhood?: string;
  city?: string;
  state?: string;
};

export type Routing = {
  /**
   * Road distance in km (2 decimals) from the shop's CEP to an address; null when the service is not
   * configured, cannot place either point, or does not answer in time (the operator then types it).
   */
  distanceKm(originZipCode: string, to: RoutableAddress): Promise<number | null>;
};

type Point = { lat: number; lon: number };

/**
 * Routing adapter: geocoding with the Nominatim contract (`GET {geocoder}/search?format=json&...` ->
 * `[{lat, lon, display_name}]`, strings) and the road distance with the OSRM contract (`GET
 * {router}/route/v1/driving/{lon},{lat};{lon},{lat}?overview=false` -> `{code: "Ok", routes:
 * [{distance (m), duration (s)}]}`; errors `{code: "NoRoute" | "InvalidQuery", message}`). Geocodes
 * are cached (an address does not move). Never throws: a failure is "no distance".
 */
export function osrmRouting(options: {
  routingUrl?: string;
  geocoderUrl?: string;
  timeoutMs: number;
  userAgent: string;
}): Routing {
  const { routingUrl, geocoderUrl } = options;
  const cache = new Map<string, Point | null>();

  async function getJson(url: string): Promise<unknown> {
    const response = await outboundFetch(url, {
      headers: { accept: 'application/json', 'user-agent': options.userAgent },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) throw new Error(`routing service answered ${response.status}`);
    return response.json();
  }

  async function geocode(params: Record<string, string>): Promise<Point | null> {
    const query = new URLSearchParams({ format: 'json', limit: '1', countrycodes: 'br', ...params });
    const key = query.toString();
    if (cache.has(key)) return cache.get(key) ?? null;
    const body = (await getJson(`${geocoderUrl!.replace(/\/+$/, '')}/search?${key}`)) as {
      lat?: string;
      lon?: string;
    }[];
    const first = Array.isArray(body) ? body[0] : undefined;
    const point =
      first && Number.isFinite(Number(first.lat)) && Number.isFinite(Number(first.lon))
        ? { lat: Number(first.lat), lon: Number(first.lon) }
        : null;
    if (cache.size > 5000) cache.delete(cache.keys().next().value as string);
    cache.set(key, point);
    return point;
  }

  function addressParams(to: RoutableAddress): Record<string, string> {
    const params: Record<string, string> = {};
    const street = [to.number, to.street].filter(Boolean).join(' ').trim();
    if (street) params.street = street;
    if (to.city) params.city = to.city;
    if (to.state) params.state = to.state;
    if (to.zipCode) params.postalcode = normalizeCep(to.zipCode);
    return params;
  }

  return {
    async distanceKm(originZipCode, to) {
      if (!routingUrl || !geocoderUrl) return null;
      try {
        const [from, dest] = await Promise.all([
          geocode({ postalcode: normalizeCep(originZipCode) }),
          geocode(addressParams(to)),
        ]);
        if (!from || !dest) return null;
        const body = (await getJson(
          `${routingUrl.replace(/\/+$/, '')}/route/v1/driving/${from.lon},${from.lat};${dest.lon},${dest.lat}?overview=false`,
        )) as { code?: string; routes?: { distance?: number }[] };
        const meters = body.code === 'Ok' ? body.routes?.[0]?.distance : undefined;
        if (typeof meters !== 'number' || !Number.isFinite(meters)) return null;
        return Math.round(meters / 10) / 100;
      } catch {
        return null;
      }
    },
  };
}
