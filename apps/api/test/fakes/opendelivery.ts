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
 * A fake Open Delivery ordering application (ABRASEL openapi.yaml, github.com/Abrasel-Nacional/docs):
 * POST /oauth/token (form grant_type, client_id, client_secret) -> {access_token, token_type,
 * expires_in}; GET /v1/events:polling (x-polling-merchants) -> 200 [Event] or 204; POST
 * /v1/events/acknowledgment [{id, orderId, eventType}] -> 202; GET /v1/orders/{orderId} -> Order
 * (money as {value, currency}); POST .../confirm, readyForPickup, dispatch, delivered,
 * requestCancellation, acceptCancellation, denyCancellation -> 202. 429 while `rateLimitNext` > 0.
 * Events kept 8 hours, repeated and shuffled on demand; GET /__fake/place places an order.
 */

type OdEvent = {
  eventId: string;
  eventType: string;
  orderId: string;
  orderURL: string;
  createdAt: string;
  sourceAppId: string;
};

export type FakeOpenDelivery = {
  url: string;
  clientId: string;
  clientSecret: string;
  merchantId: string;
  orders: Map<string, Record<string, unknown>>;
  store: EventStore<OdEvent>;
  statusCalls: StatusCall[];
  acks: string[];
  rateLimitNext: number;
  repeatEvery: number;
  shuffle: boolean;
  placeOrder(order: PlaceOrder): string;
  cancel(orderId: string): void;
  close(): Promise<void>;
};

const EVENT_OF: Record<string, string> = {
  confirm: 'CONFIRMED',
  readyForPickup: 'READY_FOR_PICKUP',
  dispatch: 'DISPATCHED',
  delivered: 'DELIVERED',
  requestCancellation: 'CANCELLATION_REQUESTED',
  acceptCancellation: 'CANCELLED',
  denyCancellation: 'CANCELLED_DENIED',
};

const money = (value: number) => ({ value: round2(value), currency: 'BRL' });

export async function startFakeOpenDelivery(
  options: { port?: number; clientId?: string; clientSecret?: string; merchantId?: string } = {},
): Promise<FakeOpenDelivery> {
  const tokens = new Set<string>();
  const fake = {
    url: '',
    clientId: options.clientId ?? 'fake-od-client',
    clientSecret: options.clientSecret ?? 'fake-od-secret',
    merchantId: options.merchantId ?? '22815773000169-dbc7e35a-c936-4665-9e13-eb55eb8b6824',
    orders: new Map<string, Record<string, unknown>>(),
    store: new EventStore<OdEvent>(Date.now),
    statusCalls: [] as StatusCall[],
    acks: [] as string[],
    rateLimitNext: 0,
    repeatEvery: 0,
    shuffle: false,
  } as FakeOpenDelivery;
  let sequence = 500;
  const publish = (orderId: string, eventType: string, createdAt?: string) => {
    const eventId = randomUUID();
    fake.store.add(
      fake.merchantId,
      {
        eventId,
        eventType,
        orderId,
        orderURL: `${fake.url}/v1/orders/${orderId}`,
        createdAt: createdAt ?? new Date().toISOString(),
        sourceAppId: 'fake-app',
      },
      eventId,
    );
  };
  fake.placeOrder = (o) => {
    const id = o.id ?? randomUUID();
    const items = o.items.map((i, n) => ({
      id: randomUUID(),
      index: n + 1,
      name: i.name,
      externalCode: i.externalCode,
      unit: 'UN',
      quantity: i.quantity,
      unitPrice: money(i.unitPrice),
      optionsPrice: money(0),
      totalPrice: money(i.unitPrice * i.quantity),
      options: [],
    }));
    const itemsPrice = items.reduce((s, i) => s + i.totalPrice.value, 0);
    const delivery = (o.type ?? 'DELIVERY') === 'DELIVERY';
    const fee = delivery ? (o.deliveryFee ?? 6) : 0;
    const orderAmount = round2(itemsPrice + fee);
    const online = (o.payment ?? 'ONLINE') === 'ONLINE';
    const createdAt = o.createdAt ?? new Date().toISOString();
    fake.orders.set(id, {
      id,
      type: delivery ? 'DELIVERY' : 'TAKEOUT',
      displayId: o.displayId ?? String(sequence++),
      sourceAppId: 'fake-app',
      createdAt,
      orderTiming: 'INSTANT',
      preparationStartDateTime: createdAt,
      merchant: { id: fake.merchantId, name: 'Loja Fake' },
      items,
      otherFees: delivery
        ? [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', receivedBy: 'MERCHANT', price: money(fee) }]
        : [],
      discounts: [],
      total: {
        itemsPrice: money(itemsPrice),
        otherFees: money(fee),
        discount: money(0),
        orderAmount: money(orderAmount),
      },
      payments: {
        prepaid: online ? orderAmount : 0,
        pending: online ? 0 : orderAmount,
        methods: [
          online
            ? { value: orderAmount, currency: 'BRL', type: 'PREPAID', method: 'CREDIT', brand: 'VISA' }
            : {
                value: orderAmount,
                currency: 'BRL',
                type: 'PENDING',
                method: 'CASH',
                changeFor: o.changeFor ?? 0,
              },
        ],
      },
      customer: {
        id: o.customerId ?? randomUUID(),
        name: o.customerName ?? 'Cliente Open Delivery',
        phone: { number: o.phone ?? '11987654321' },
        ordersCountOnMerchant: 1,
      },
      ...(delivery
        ? {
            delivery: {
              deliveredBy: o.deliveredBy ?? 'MERCHANT',
              estimatedDeliveryDateTime: createdAt,
              deliveryAddress: {
                country: 'BR',
                state: 'SP',
                city: 'São Paulo',
                district: 'Centro',
                street: 'Rua Augusta',
                number: '200',
                complement: 'Casa',
                reference: '',
                formattedAddress: 'Rua Augusta, 200',
                postalCode: '01304000',
                coordinates: { latitude: -23.55, longitude: -46.65 },
              },
            },
          }
        : { takeout: { mode: 'DEFAULT', takeoutDateTime: createdAt } }),
    });
    publish(id, 'CREATED', createdAt);
    return id;
  };
  fake.cancel = (orderId) => publish(orderId, 'CANCELLED');

  const server: Server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const body = await readBody(req);
      if (req.method === 'GET' && path === '/__fake/place')
        return send(res, 200, placePage('Open Delivery (fake)', '/__fake/place'));
      if (req.method === 'POST' && path === '/__fake/place')
        return send(res, 200, `<p>Pedido feito: ${fake.placeOrder(placeFromForm(body))}</p>`);
      if (req.method === 'POST' && path === '/__fake/orders')
        return send(res, 201, { id: fake.placeOrder(JSON.parse(body) as PlaceOrder) });
      if (req.method === 'GET' && path === '/__fake/status-calls') return send(res, 200, fake.statusCalls);
      if (req.method === 'POST' && path === '/oauth/token') {
        const form = new URLSearchParams(body);
        if (
          form.get('grant_type') !== 'client_credentials' ||
          form.get('client_id') !== fake.clientId ||
          form.get('client_secret') !== fake.clientSecret
        )
          return send(res, 401, { title: 'Unauthorized', status: 401 });
        const token = randomUUID();
        tokens.add(token);
        return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: 3600 });
      }
      if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
        return send(res, 401, { title: 'Unauthorized', status: 401 });
      if (fake.rateLimitNext > 0) {
        fake.rateLimitNext--;
        return send(res, 429, { title: 'Too Many Requests', status: 429 }, { 'retry-after': '1' });
      }
      if (req.method === 'GET' && path === '/v1/events:polling') {
        const header = req.headers['x-polling-merchants'];
        const merchants = header
          ? String(header)
              .split(',')
              .map((m) => m.trim())
          : null;
        const pending = fake.store.pending(merchants, {
          repeatEvery: fake.repeatEvery,
          shuffle: fake.shuffle,
          max: 1000,
        });
        return pending.length === 0
          ? send(res, 204)
          : send(
              res,
              200,
              pending.map((p) => p.event),
            );
      }
      if (req.method === 'POST' && path === '/v1/events/acknowledgment') {
        const acks = JSON.parse(body || '[]') as { id: string; orderId: string; eventType: string }[];
        if (acks.some((a) => !a.id || !a.orderId || !a.eventType))
          return send(res, 400, {
            title: 'Bad Request',
            status: 400,
            detail: 'id, orderId and eventType are required',
          });
        fake.store.ack(acks.map((a) => a.id));
        fake.acks.push(...acks.map((a) => a.id));
        return send(res, 202);
      }
      const m = /^\/v1\/orders\/([^/]+)(?:\/([A-Za-z]+))?$/.exec(path);
      if (m) {
        const found = fake.orders.get(decodeURIComponent(m[1]));
        if (!found) return send(res, 404, { title: 'Not Found', status: 404 });
        if (req.method === 'GET' && !m[2]) return send(res, 200, found);
        if (req.method === 'POST' && m[2] && EVENT_OF[m[2]]) {
          fake.statusCalls.push({
            orderId: found.id as string,
            action: m[2],
            body: body ? JSON.parse(body) : null,
            at: Date.now(),
          });
          publish(found.id as string, EVENT_OF[m[2]]);
          return send(res, 202);
        }
      }
      return send(res, 404, { title: 'Not Found', status: 404 });
    } catch (error) {
      return send(res, 500, { title: 'Internal Server Error', status: 500, detail: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
