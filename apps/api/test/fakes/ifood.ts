import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  EventStore,
  type PlaceOrder,
  placeFromForm,
  placePage,
  readBody,
  round2,
  type StatusCall,
  send,
} from './marketplace-common.ts';

/**
 * A fake iFood Merchant API following its published contract (developer.ifood.com.br):
 * - POST /authentication/v1.0/oauth/token (form: grantType=client_credentials, clientId, clientSecret)
 *   -> {accessToken, type, expiresIn}; wrong credentials 401;
 * - GET /events/v1.0/events:polling (Bearer, x-polling-merchants) -> 200 [events] or 204; events stay
 *   until acknowledged, for 8 hours, and may come repeated and out of order;
 * - POST /events/v1.0/events/acknowledgment [{id}] -> 202;
 * - GET /order/v1.0/orders/{id} -> the order; POST .../confirm, startPreparation, readyToPickup,
 *   dispatch, requestCancellation, acceptCancellation, denyCancellation -> 202 (recorded; the matching
 *   event CFM, RTP, DSP... is published as iFood does);
 * - 429 with `Retry-After` while `rateLimitNext` > 0 (error body {error: {code, message}}).
 * Test hooks: placeOrder (a scriptable new order), cancel, consumerCancellation; GET /__fake/place is a
 * page where a person places an order as a customer; GET /__fake/status-calls lists what was received.
 */

type IfoodEvent = {
  id: string;
  code: string;
  fullCode: string;
  orderId: string;
  merchantId: string;
  createdAt: string;
  salesChannel: string;
  metadata?: Record<string, unknown>;
};

export type FakeIfood = {
  url: string;
  clientId: string;
  clientSecret: string;
  merchantId: string;
  orders: Map<string, Record<string, unknown>>;
  store: EventStore<IfoodEvent>;
  statusCalls: StatusCall[];
  /** Each polling call: when, and for which merchants (the 30 s rule). */
  polls: { at: number; merchants: string[] | null }[];
  /** Acknowledged event ids, in order. */
  acks: string[];
  /** The next N calls (any endpoint but the token) answer 429. */
  rateLimitNext: number;
  /** Every Nth pending event is answered twice in a polling (0 = never). */
  repeatEvery: number;
  shuffle: boolean;
  /** The next N status calls answer 500. */
  failStatusNext: number;
  placeOrder(order: PlaceOrder): string;
  /** The platform cancels an order (CAN). */
  cancel(orderId: string): void;
  consumerCancellation(orderId: string): void;
  /** An event for an order, with a given time (reordering). */
  publish(orderId: string, code: string, fullCode: string, createdAt?: string): string;
  close(): Promise<void>;
};

const FULL: Record<string, string> = {
  confirm: 'CFM:CONFIRMED',
  startPreparation: 'PRS:PREPARATION_STARTED',
  readyToPickup: 'RTP:READY_TO_PICKUP',
  dispatch: 'DSP:DISPATCHED',
  requestCancellation: 'CAR:CANCELLATION_REQUESTED',
  acceptCancellation: 'CAN:CANCELLED',
  denyCancellation: 'CCD:CONSUMER_CANCELLATION_DENIED',
};

export async function startFakeIfood(
  options: {
    port?: number;
    clientId?: string;
    clientSecret?: string;
    merchantId?: string;
    clock?: () => number;
    /** Called with the acknowledged ids before the 202 (tests check what was stored by then). */
    onAck?: (ids: string[]) => Promise<void> | void;
  } = {},
): Promise<FakeIfood> {
  const clock = options.clock ?? Date.now;
  const tokens = new Set<string>();
  const fake = {
    url: '',
    clientId: options.clientId ?? 'fake-ifood-client',
    clientSecret: options.clientSecret ?? 'fake-ifood-secret',
    merchantId: options.merchantId ?? '6b487a27-c4fc-4f26-b05e-3967c2331882',
    orders: new Map<string, Record<string, unknown>>(),
    store: new EventStore<IfoodEvent>(clock),
    statusCalls: [] as StatusCall[],
    polls: [] as FakeIfood['polls'],
    acks: [] as string[],
    rateLimitNext: 0,
    repeatEvery: 0,
    shuffle: false,
    failStatusNext: 0,
  } as FakeIfood;
  let sequence = 1000;

  fake.publish = (orderId, code, fullCode, createdAt) => {
    const id = randomUUID();
    fake.store.add(
      fake.merchantId,
      {
        id,
        code,
        fullCode,
        orderId,
        merchantId: fake.merchantId,
        createdAt: createdAt ?? new Date(clock()).toISOString(),
        salesChannel: 'IFOOD',
      },
      id,
    );
    return id;
  };
  fake.placeOrder = (o) => {
    const id = o.id ?? randomUUID();
    const items = o.items.map((i, n) => ({
      index: n + 1,
      id: randomUUID(),
      uniqueId: randomUUID(),
      name: i.name,
      externalCode: i.externalCode,
      unit: 'UN',
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      optionsPrice: 0,
      totalPrice: round2(i.unitPrice * i.quantity),
      price: round2(i.unitPrice * i.quantity),
      options: [],
    }));
    const subTotal = round2(items.reduce((s, i) => s + i.totalPrice, 0));
    const deliveryFee = o.type === 'TAKEOUT' ? 0 : (o.deliveryFee ?? 5);
    const orderAmount = round2(subTotal + deliveryFee);
    const online = (o.payment ?? 'ONLINE') === 'ONLINE';
    const createdAt = o.createdAt ?? new Date(clock()).toISOString();
    fake.orders.set(id, {
      id,
      displayId: o.displayId ?? String(sequence++),
      orderType: o.type ?? 'DELIVERY',
      orderTiming: 'IMMEDIATE',
      salesChannel: 'IFOOD',
      category: 'FOOD',
      createdAt,
      preparationStartDateTime: createdAt,
      isTest: true,
      merchant: { id: fake.merchantId, name: 'Loja Fake' },
      customer: {
        id: o.customerId ?? randomUUID(),
        name: o.customerName ?? 'Cliente iFood',
        documentNumber: null,
        phone: { number: o.phone ?? '0800 705 0500', localizer: '12345678', localizerExpiration: createdAt },
        ordersCountOnMerchant: 1,
        segmentation: 'Novo',
      },
      items,
      total: { subTotal, deliveryFee, benefits: 0, orderAmount, additionalFees: 0 },
      payments: {
        prepaid: online ? orderAmount : 0,
        pending: online ? 0 : orderAmount,
        methods: [
          online
            ? {
                value: orderAmount,
                currency: 'BRL',
                method: 'CREDIT',
                type: 'ONLINE',
                card: { brand: 'VISA' },
              }
            : {
                value: orderAmount,
                currency: 'BRL',
                method: 'CASH',
                type: 'OFFLINE',
                cash: { changeFor: o.changeFor ?? 0 },
              },
        ],
      },
      ...(o.type === 'TAKEOUT'
        ? { takeout: { mode: 'DEFAULT', takeoutDateTime: createdAt } }
        : {
            delivery: {
              mode: 'DEFAULT',
              deliveredBy: o.deliveredBy === 'MARKETPLACE' ? 'IFOOD' : 'MERCHANT',
              deliveryDateTime: createdAt,
              deliveryAddress: {
                streetName: 'Rua das Flores',
                streetNumber: '100',
                formattedAddress: 'Rua das Flores, 100',
                neighborhood: 'Centro',
                complement: 'Apto 12',
                reference: 'Perto da praça',
                postalCode: '01001000',
                city: 'São Paulo',
                state: 'SP',
                country: 'BR',
                coordinates: { latitude: -23.55, longitude: -46.63 },
              },
            },
          }),
    });
    fake.publish(id, 'PLC', 'PLACED', createdAt);
    return id;
  };
  fake.cancel = (orderId) => void fake.publish(orderId, 'CAN', 'CANCELLED');
  fake.consumerCancellation = (orderId) =>
    void fake.publish(orderId, 'CCR', 'CONSUMER_CANCELLATION_REQUESTED');

  const unauthorized = { error: { code: 'Unauthorized', message: 'Token is not valid' } };
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      const body = await readBody(req);
      if (req.method === 'GET' && path === '/__fake/place')
        return send(res, 200, placePage('iFood (fake)', '/__fake/place'));
      if (req.method === 'POST' && path === '/__fake/place') {
        const id = fake.placeOrder(placeFromForm(body));
        return send(res, 200, `<p>Pedido feito: ${id}</p>`);
      }
      if (req.method === 'POST' && path === '/__fake/orders') {
        const id = fake.placeOrder(JSON.parse(body) as PlaceOrder);
        return send(res, 201, { id, displayId: fake.orders.get(id)?.displayId });
      }
      if (req.method === 'GET' && path === '/__fake/status-calls') return send(res, 200, fake.statusCalls);
      if (req.method === 'POST' && path === '/authentication/v1.0/oauth/token') {
        const form = new URLSearchParams(body);
        if (
          form.get('grantType') !== 'client_credentials' ||
          form.get('clientId') !== fake.clientId ||
          form.get('clientSecret') !== fake.clientSecret
        )
          return send(res, 401, { error: { code: 'Unauthorized', message: 'Invalid client credentials' } });
        const token = randomUUID();
        tokens.add(token);
        return send(res, 200, { accessToken: token, type: 'bearer', expiresIn: 21600 });
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!tokens.has(token)) return send(res, 401, unauthorized);
      if (fake.rateLimitNext > 0) {
        fake.rateLimitNext--;
        return send(
          res,
          429,
          { error: { code: 'TooManyRequests', message: 'Too many requests' } },
          { 'retry-after': '1' },
        );
      }
      if (req.method === 'GET' && path === '/events/v1.0/events:polling') {
        const header = req.headers['x-polling-merchants'];
        const merchants = header
          ? String(header)
              .split(',')
              .map((m) => m.trim())
          : null;
        fake.polls.push({ at: clock(), merchants });
        const pending = fake.store.pending(merchants, {
          repeatEvery: fake.repeatEvery,
          shuffle: fake.shuffle,
          max: 1000,
        });
        if (pending.length === 0) return send(res, 204);
        return send(
          res,
          200,
          pending.map((p) => p.event),
        );
      }
      if (req.method === 'POST' && path === '/events/v1.0/events/acknowledgment') {
        const ids = (JSON.parse(body || '[]') as { id: string }[]).map((e) => e.id);
        await options.onAck?.(ids);
        fake.store.ack(ids);
        fake.acks.push(...ids);
        return send(res, 202);
      }
      const order = /^\/order\/v1\.0\/orders\/([^/]+)(?:\/([A-Za-z]+))?$/.exec(path);
      if (order) {
        const [, id, action] = order;
        const found = fake.orders.get(decodeURIComponent(id));
        if (!found) return send(res, 404, { error: { code: 'NotFound', message: 'Order not found' } });
        if (req.method === 'GET' && !action) return send(res, 200, found);
        if (req.method === 'POST' && action && FULL[action]) {
          if (fake.failStatusNext > 0) {
            fake.failStatusNext--;
            return send(res, 500, { error: { code: 'InternalServerError', message: 'Try again' } });
          }
          fake.statusCalls.push({
            orderId: found.id as string,
            action,
            body: body ? JSON.parse(body) : null,
            at: clock(),
          });
          const [code, full] = FULL[action].split(':');
          fake.publish(found.id as string, code, full);
          return send(res, 202);
        }
      }
      return send(res, 404, { error: { code: 'NotFound', message: 'Not found' } });
    } catch (error) {
      return send(res, 500, { error: { code: 'InternalServerError', message: String(error) } });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
