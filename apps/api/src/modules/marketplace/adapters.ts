import type { MarketplaceKind, MarketplaceStatusSend } from '@balcao/core/marketplace';
import { outboundFetch } from '../../lib/outbound.ts';

/**
 * One interface for every marketplace (issue 35): iFood's Merchant API and the Open Delivery standard
 * (ABRASEL, openapi.yaml of github.com/Abrasel-Nacional/docs). A second Open Delivery app is a line of
 * OPEN_DELIVERY_PROVIDERS (its host), not code. Every call goes through the outbound guard.
 */

/** What Balcão does with an event; the adapter keeps what the marketplace needs to acknowledge it. */
export type EventKind =
  | 'placed'
  | 'canceled'
  | 'cancellationRequested'
  /** The marketplace's courier collected the order (iFood DSP DISPATCHED). */
  | 'dispatched'
  /** The order was delivered (iFood CON CONCLUDED, Open Delivery DELIVERED / CONCLUDED). */
  | 'concluded'
  | 'other';

export type MarketplaceEvent = {
  id: string;
  orderId: string;
  kind: EventKind;
  /** The marketplace's own code (iFood PLC/CAN..., Open Delivery CREATED/CANCELLED...). */
  code: string;
  createdAt: string;
};

export type OrderAddress = {
  street: string;
  number: string;
  complement: string | null;
  neighborhood: string;
  city: string;
  state: string;
  zipCode: string;
  reference: string | null;
};

export type NormalizedItem = {
  index: number;
  externalCode: string;
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
  notes: string | null;
};

/** An order in Balcão's terms, whatever the marketplace (kept as marketplace_orders.detail). */
export type NormalizedOrder = {
  externalId: string;
  displayId: string;
  type: 'delivery' | 'pickup';
  createdAt: string;
  customer: { externalId: string; name: string; phone: string | null };
  address: OrderAddress | null;
  items: NormalizedItem[];
  subtotalCents: number;
  deliveryFeeCents: number;
  feesCents: number;
  discountCents: number;
  totalCents: number;
  prepaidCents: number;
  pendingCents: number;
  /** How the pending part is paid on delivery. */
  pendingMethod: 'money' | 'debitCard' | 'creditCard' | 'pix' | null;
  changeForCents: number;
  /** Canceled by the time its details were read (a reordered cancel event). */
  canceled: boolean;
  /**
   * Delivered by the marketplace's own couriers (iFood `delivery.deliveredBy` IFOOD, Open Delivery
   * MARKETPLACE): the shop only makes it ready. Absent on orders stored before (the shop's drivers).
   */
  marketplaceDelivers?: boolean;
};

/** A 429: nothing more until `retryAfterMs` has passed. */
export class MarketplaceRateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limited for ${retryAfterMs} ms`);
    this.name = 'MarketplaceRateLimited';
  }
}

export class MarketplaceCallFailed extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`marketplace answered ${status}: ${detail.slice(0, 300)}`);
    this.name = 'MarketplaceCallFailed';
  }
}

export type StatusSend = MarketplaceStatusSend | 'acceptCancellation' | 'denyCancellation';

export type MarketplaceAdapter = {
  /** One polling call: the events not acknowledged yet (empty on 204). */
  poll(): Promise<MarketplaceEvent[]>;
  /** Acknowledges events (only after what they carry is stored). */
  ack(events: MarketplaceEvent[]): Promise<void>;
  order(externalId: string): Promise<NormalizedOrder>;
  /** Tells the marketplace a status; 'unsupported' when it has no such call. */
  send(externalId: string, status: StatusSend): Promise<'sent' | 'unsupported'>;
};

export type AccountCredentials = {
  accountId: number;
  kind: MarketplaceKind;
  baseUrl: string;
  merchantId: string;
  clientId: string;
  clientSecret: string;
};

const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
const str = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** Tokens per account, renewed a minute before they end or after a 401 (a per-process cache). */
const tokens = new Map<string, { token: string; until: number }>();

export function forgetToken(accountId: number) {
  for (const key of tokens.keys()) if (key.startsWith(`${accountId}:`)) tokens.delete(key);
}

function retryAfterMs(response: Response): number {
  const header = Number(response.headers.get('retry-after'));
  return Number.isFinite(header) && header > 0 ? header * 1000 : 60_000;
}

async function failOf(response: Response): Promise<Error> {
  if (response.status === 429) return new MarketplaceRateLimited(retryAfterMs(response));
  return new MarketplaceCallFailed(response.status, await response.text().catch(() => ''));
}

type Dialect = {
  tokenRequest(c: AccountCredentials): { path: string; body: URLSearchParams };
  tokenOf(body: Record<string, unknown>): { token: string; expiresIn: number };
  pollPath: string;
  ackPath: string;
  ackBody(events: MarketplaceEvent[]): unknown;
  eventOf(raw: Record<string, unknown>): MarketplaceEvent;
  orderPath(id: string): string;
  normalize(raw: Record<string, unknown>): NormalizedOrder;
  statusCall(id: string, status: StatusSend): { path: string; body?: unknown } | null;
};

function adapterOf(c: AccountCredentials, dialect: Dialect, timeoutMs: number): MarketplaceAdapter {
  const key = `${c.accountId}:${c.clientId}:${c.baseUrl}`;
  const token = async (renew = false) => {
    const cached = tokens.get(key);
    if (cached && !renew && cached.until > Date.now()) return cached.token;
    const request = dialect.tokenRequest(c);
    const response = await outboundFetch(`${c.baseUrl}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: request.body.toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw await failOf(response);
    const got = dialect.tokenOf((await response.json()) as Record<string, unknown>);
    tokens.set(key, { token: got.token, until: Date.now() + Math.max(0, got.expiresIn - 60) * 1000 });
    return got.token;
  };
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers = {}) => {
    for (let attempt = 0; ; attempt++) {
      const response = await outboundFetch(`${c.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await token(attempt > 0)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 401 && attempt === 0) {
        await response.body?.cancel().catch(() => {});
        continue;
      }
      if (!response.ok) throw await failOf(response);
      return response;
    }
  };
  return {
    async poll() {
      const response = await call('GET', dialect.pollPath, undefined, {
        'x-polling-merchants': c.merchantId,
      });
      if (response.status === 204) return [];
      const body = (await response.json()) as unknown;
      return Array.isArray(body) ? body.map((e) => dialect.eventOf(e as Record<string, unknown>)) : [];
    },
    async ack(events) {
      for (let i = 0; i < events.length; i += 100) {
        const response = await call('POST', dialect.ackPath, dialect.ackBody(events.slice(i, i + 100)));
        await response.body?.cancel().catch(() => {});
      }
    },
    async order(id) {
      const response = await call('GET', dialect.orderPath(id));
      return dialect.normalize((await response.json()) as Record<string, unknown>);
    },
    async send(id, status) {
      const request = dialect.statusCall(id, status);
      if (!request) return 'unsupported';
      const response = await call('POST', request.path, request.body ?? {});
      await response.body?.cancel().catch(() => {});
      return 'sent';
    },
  };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const PENDING_METHODS: Record<string, NormalizedOrder['pendingMethod']> = {
  CASH: 'money',
  CREDIT: 'creditCard',
  DEBIT: 'debitCard',
  PIX: 'pix',
};

function optionsText(options: Obj[], notes: unknown): string | null {
  const parts = options.map((o) => `${Number(o.quantity ?? 1)}x ${str(o.name)}`);
  if (str(notes)) parts.push(str(notes));
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * iFood Merchant API (developer.ifood.com.br): authentication/v1.0 (client credentials, camelCase
 * form fields), events/v1.0 polling with x-polling-merchants and acknowledgment, order/v1.0 details
 * and actions. Money in reais (decimals).
 */
const ifood: Dialect = {
  tokenRequest: (c) => ({
    path: '/authentication/v1.0/oauth/token',
    body: new URLSearchParams({
      grantType: 'client_credentials',
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    }),
  }),
  tokenOf: (b) => ({ token: str(b.accessToken), expiresIn: Number(b.expiresIn ?? 3600) }),
  pollPath: '/events/v1.0/events:polling',
  ackPath: '/events/v1.0/events/acknowledgment',
  ackBody: (events) => events.map((e) => ({ id: e.id })),
  eventOf: (e) => {
    const code = str(e.code);
    const full = str(e.fullCode);
    const kind: EventKind =
      code === 'PLC' || full === 'PLACED'
        ? 'placed'
        : code === 'CAN' || full === 'CANCELLED'
          ? 'canceled'
          : full === 'CONSUMER_CANCELLATION_REQUESTED' || code === 'CCR'
            ? 'cancellationRequested'
            : code === 'DSP' || full === 'DISPATCHED'
              ? 'dispatched'
              : code === 'CON' || full === 'CONCLUDED'
                ? 'concluded'
                : 'other';
    return { id: str(e.id), orderId: str(e.orderId), kind, code, createdAt: str(e.createdAt) };
  },
  orderPath: (id) => `/order/v1.0/orders/${encodeURIComponent(id)}`,
  normalize: (o) => {
    const customer = obj(o.customer);
    const delivery = obj(o.delivery);
    const address = obj(delivery.deliveryAddress);
    const total = obj(o.total);
    const payments = obj(o.payments);
    const pending = arr(payments.methods).find((m) => m.type === 'OFFLINE');
    return {
      externalId: str(o.id),
      displayId: str(o.displayId),
      type: o.orderType === 'TAKEOUT' ? 'pickup' : 'delivery',
      marketplaceDelivers: o.orderType !== 'TAKEOUT' && delivery.deliveredBy === 'IFOOD',
      createdAt: str(o.createdAt),
      customer: {
        externalId: str(customer.id),
        name: str(customer.name) || 'Cliente iFood',
        phone: str(obj(customer.phone).number) || null,
      },
      address:
        o.orderType === 'TAKEOUT'
          ? null
          : {
              street: str(address.streetName),
              number: str(address.streetNumber),
              complement: str(address.complement) || null,
              neighborhood: str(address.neighborhood),
              city: str(address.city),
              state: str(address.state),
              zipCode: str(address.postalCode).replace(/\D/g, ''),
              reference: str(address.reference) || null,
            },
      items: arr(o.items).map((i, n) => ({
        index: Number(i.index ?? n + 1),
        externalCode: str(i.externalCode) || str(i.id),
        name: str(i.name),
        quantity: Number(i.quantity ?? 1),
        unitPriceCents: Math.round(cents(i.totalPrice) / Math.max(0.001, Number(i.quantity ?? 1))),
        totalCents: cents(i.totalPrice),
        notes: optionsText(arr(i.options), i.observations),
      })),
      subtotalCents: cents(total.subTotal),
      deliveryFeeCents: cents(total.deliveryFee),
      feesCents: cents(total.additionalFees),
      discountCents: cents(total.benefits),
      totalCents: cents(total.orderAmount),
      prepaidCents: cents(payments.prepaid),
      pendingCents: cents(payments.pending),
      pendingMethod: pending ? (PENDING_METHODS[str(pending.method)] ?? 'money') : null,
      changeForCents: cents(obj(pending?.cash).changeFor),
      canceled: false,
    };
  },
  statusCall: (id, status) => {
    const base = `/order/v1.0/orders/${encodeURIComponent(id)}`;
    switch (status) {
      case 'confirmed':
        return { path: `${base}/confirm` };
      case 'preparing':
        return { path: `${base}/startPreparation` };
      case 'ready':
        return { path: `${base}/readyToPickup` };
      case 'dispatched':
        return { path: `${base}/dispatch` };
      case 'delivered':
        // iFood concludes a delivered order by itself: there is no call for it.
        return null;
      case 'canceled':
        return {
          path: `${base}/requestCancellation`,
          body: { reason: 'Cancelado pela loja', cancellationCode: '501' },
        };
      case 'acceptCancellation':
        return { path: `${base}/acceptCancellation` };
      case 'denyCancellation':
        return { path: `${base}/denyCancellation` };
    }
  },
};

const price = (v: unknown) => cents(obj(v).value);

/**
 * Open Delivery v1 (openapi.yaml): /oauth/token (snake_case form fields), /v1/events:polling with
 * x-polling-merchants, /v1/events/acknowledgment [{id, orderId, eventType}], /v1/orders/{orderId} and
 * its confirm, readyForPickup, dispatch, delivered and cancellation calls. Money as {value, currency}.
 */
const openDelivery: Dialect = {
  tokenRequest: (c) => ({
    path: '/oauth/token',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: c.clientSecret,
    }),
  }),
  tokenOf: (b) => ({ token: str(b.access_token), expiresIn: Number(b.expires_in ?? 3600) }),
  pollPath: '/v1/events:polling',
  ackPath: '/v1/events/acknowledgment',
  ackBody: (events) => events.map((e) => ({ id: e.id, orderId: e.orderId, eventType: e.code })),
  eventOf: (e) => {
    const code = str(e.eventType);
    const kind: EventKind =
      code === 'CREATED'
        ? 'placed'
        : code === 'CANCELLED'
          ? 'canceled'
          : code === 'ORDER_CANCELLATION_REQUEST'
            ? 'cancellationRequested'
            : code === 'DISPATCHED'
              ? 'dispatched'
              : code === 'DELIVERED' || code === 'CONCLUDED'
                ? 'concluded'
                : 'other';
    return { id: str(e.eventId), orderId: str(e.orderId), kind, code, createdAt: str(e.createdAt) };
  },
  orderPath: (id) => `/v1/orders/${encodeURIComponent(id)}`,
  normalize: (o) => {
    const customer = obj(o.customer);
    const delivery = obj(o.delivery);
    const address = obj(delivery.deliveryAddress);
    const total = obj(o.total);
    const payments = obj(o.payments);
    const fees = arr(o.otherFees);
    const pending = arr(payments.methods).find((m) => m.type === 'PENDING');
    const feeOf = (type: string) =>
      fees.filter((f) => f.type === type).reduce((s, f) => s + price(f.price), 0);
    return {
      externalId: str(o.id),
      displayId: str(o.displayId),
      type: o.type === 'DELIVERY' ? 'delivery' : 'pickup',
      marketplaceDelivers: o.type === 'DELIVERY' && delivery.deliveredBy === 'MARKETPLACE',
      createdAt: str(o.createdAt),
      customer: {
        externalId: str(customer.id),
        name: str(customer.name) || 'Cliente',
        phone: str(obj(customer.phone).number) || null,
      },
      address:
        o.type === 'DELIVERY'
          ? {
              street: str(address.street),
              number: str(address.number),
              complement: str(address.complement) || null,
              neighborhood: str(address.district),
              city: str(address.city),
              state: str(address.state),
              zipCode: str(address.postalCode).replace(/\D/g, ''),
              reference: str(address.reference) || null,
            }
          : null,
      items: arr(o.items).map((i, n) => ({
        index: Number(i.index ?? n + 1),
        externalCode: str(i.externalCode) || str(i.id),
        name: str(i.name),
        quantity: Number(i.quantity ?? 1),
        unitPriceCents: Math.round(price(i.totalPrice) / Math.max(0.001, Number(i.quantity ?? 1))),
        totalCents: price(i.totalPrice),
        notes: optionsText(arr(i.options), i.specialInstructions),
      })),
      subtotalCents: price(total.itemsPrice),
      deliveryFeeCents: feeOf('DELIVERY_FEE'),
      feesCents: price(total.otherFees) - feeOf('DELIVERY_FEE'),
      discountCents: price(total.discount),
      totalCents: price(total.orderAmount),
      prepaidCents: cents(payments.prepaid),
      pendingCents: cents(payments.pending),
      pendingMethod: pending ? (PENDING_METHODS[str(pending.method)] ?? 'money') : null,
      changeForCents: cents(pending?.changeFor),
      canceled: obj(o.lastEvent).eventType === 'CANCELLED' || o.lastEvent === 'CANCELLED',
    };
  },
  statusCall: (id, status) => {
    const base = `/v1/orders/${encodeURIComponent(id)}`;
    switch (status) {
      case 'confirmed':
        return {
          path: `${base}/confirm`,
          body: { createdAt: new Date().toISOString(), orderExternalCode: id },
        };
      case 'preparing':
        // Open Delivery has no "preparing" call: confirm says the preparation starts soon.
        return null;
      case 'ready':
        return { path: `${base}/readyForPickup` };
      case 'dispatched':
        return { path: `${base}/dispatch` };
      case 'delivered':
        return { path: `${base}/delivered` };
      case 'canceled':
        return {
          path: `${base}/requestCancellation`,
          body: {
            reason: 'Cancelado pela loja',
            code: 'INTERNAL_DIFFICULTIES_OF_THE_RESTAURANT',
            mode: 'MANUAL',
          },
        };
      case 'acceptCancellation':
        return { path: `${base}/acceptCancellation` };
      case 'denyCancellation':
        return {
          path: `${base}/denyCancellation`,
          body: { reason: 'Pedido já preparado', code: 'DISH_ALREADY_DONE' },
        };
    }
  },
};

export function marketplaceAdapter(c: AccountCredentials, timeoutMs = 10_000): MarketplaceAdapter {
  return adapterOf(c, c.kind === 'ifood' ? ifood : openDelivery, timeoutMs);
}
