import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dateIn } from '@balcao/core/time';
import QRCode from 'qrcode';

/**
 * A local HTTP server following the Asaas API v3 contract (docs/integrations/asaas.md) for the parts
 * the billing module uses: POST /v3/customers, GET /v3/customers?externalReference=, POST /v3/payments,
 * GET /v3/payments?externalReference=, GET /v3/payments/{id}, GET /v3/payments/{id}/pixQrCode,
 * GET /v3/payments/{id}/identificationField. The `access_token` header is checked (401 otherwise), bad
 * input answers 400 `{errors: [{code, description}]}` with Asaas's texts, an unknown payment 404.
 * Lists answer `{object: 'list', hasMore, totalCount, limit, offset, data}` without deleted records.
 * Due dates are checked against today in Brasília (Asaas's clock), not UTC. `stallNext` makes the next
 * call take effect and answer too late (a timeout after Asaas accepted). `webhookEvent` builds the
 * event Asaas would POST.
 */

export type FakeAsaasPayment = {
  object: 'payment';
  id: string;
  customer: string;
  billingType: string;
  value: number;
  netValue: number;
  dueDate: string;
  status:
    | 'PENDING'
    | 'RECEIVED'
    | 'CONFIRMED'
    | 'OVERDUE'
    | 'REFUNDED'
    | 'REFUND_IN_PROGRESS'
    | 'CHARGEBACK_REQUESTED'
    | 'CHARGEBACK_DISPUTE';
  description: string | null;
  externalReference: string | null;
  invoiceUrl: string;
  bankSlipUrl: string | null;
  deleted: boolean;
};

export type FakeAsaas = {
  url: string;
  apiKey: string;
  requests: { method: string; path: string; body: unknown }[];
  customers: Map<string, Record<string, unknown>>;
  payments: Map<string, FakeAsaasPayment>;
  /** The next call answers this status (once): simulate an outage (500) or a refusal. */
  failNext: (status: number) => void;
  /**
   * The next call (or the next one matching "METHOD /path", e.g. "POST /v3/payments") takes effect but
   * its answer waits `ms` (once): a client timeout after Asaas accepted.
   */
  stallNext: (ms: number, match?: string) => void;
  /** The fake's clock (default: the real one): "today" for due dates is its date in Brasília. */
  setNow: (now: () => Date) => void;
  /** The Pix QR code's `expirationDate` for a payment (default: its due date at 23:59:59). */
  setPixExpiration: (of: (payment: FakeAsaasPayment) => string) => void;
  /** The webhook body Asaas sends for an event on a payment (a new event id unless given). */
  webhookEvent: (event: string, paymentId: string, eventId?: string) => Record<string, unknown>;
  close: () => Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : null);
      } catch {
        resolve(undefined);
      }
    });
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

const invalid = (code: string, description: string) => ({ errors: [{ code, description }] });

/** 11 or 14 digits, or a 14-character alphanumeric CNPJ: what Asaas accepts in cpfCnpj. */
const validDocument = (v: unknown) => typeof v === 'string' && /^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$/.test(v);

export async function startFakeAsaas(
  apiKey = '$aact_fake_key',
  port = 0,
  /** Browser tests: where `POST /__test/pay-latest` delivers PAYMENT_RECEIVED of the newest charge. */
  webhook?: { url: string; token: string },
): Promise<FakeAsaas> {
  const requests: FakeAsaas['requests'] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const payments = new Map<string, FakeAsaasPayment>();
  let failStatus: number | null = null;
  let stall: { ms: number; match?: string } | null = null;
  let now = () => new Date();
  let pixExpiration = (payment: FakeAsaasPayment) => `${payment.dueDate} 23:59:59`;
  let base = '';
  const STATUS_OF_EVENT: Record<string, FakeAsaasPayment['status']> = {
    PAYMENT_RECEIVED: 'RECEIVED',
    PAYMENT_CONFIRMED: 'CONFIRMED',
    PAYMENT_OVERDUE: 'OVERDUE',
    PAYMENT_REFUNDED: 'REFUNDED',
    PAYMENT_REFUND_IN_PROGRESS: 'REFUND_IN_PROGRESS',
    PAYMENT_CHARGEBACK_REQUESTED: 'CHARGEBACK_REQUESTED',
    PAYMENT_CHARGEBACK_DISPUTE: 'CHARGEBACK_DISPUTE',
    PAYMENT_RECEIVED_IN_CASH_UNDONE: 'PENDING',
  };

  /** The body Asaas POSTs for an event on a payment (the payment's status follows the event). */
  function event(name: string, paymentId: string, eventId = id('evt')): Record<string, unknown> {
    const payment = payments.get(paymentId);
    if (payment && STATUS_OF_EVENT[name]) payment.status = STATUS_OF_EVENT[name];
    if (payment && name === 'PAYMENT_DELETED') payment.deleted = true;
    return {
      id: eventId,
      event: name,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      payment: { ...(payment ?? { object: 'payment', id: paymentId }) },
    };
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const [path, search = ''] = (req.url ?? '').split('?');
    const params = new URLSearchParams(search);
    if (stall && (!stall.match || stall.match === `${req.method} ${path}`)) {
      // The request takes effect now; its answer leaves after the delay (the client gave up by then).
      const delay = stall.ms;
      stall = null;
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const held: (() => void)[] = [];
      res.writeHead = ((...args: unknown[]) => {
        held.push(() => writeHead(...args));
        return res;
      }) as typeof res.writeHead;
      res.end = ((...args: unknown[]) => {
        held.push(() => end(...args));
        setTimeout(() => {
          if (!res.destroyed) for (const step of held) step();
        }, delay);
        return res;
      }) as typeof res.end;
    }
    requests.push({ method: req.method ?? '', path, body });
    if (webhook && req.method === 'POST' && path === '/__test/pay-latest') {
      const latest = [...payments.values()].at(-1);
      if (!latest) return send(res, 404, invalid('not_found', 'Nenhuma cobrança.'));
      const sent = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'asaas-access-token': webhook.token },
        body: JSON.stringify(event('PAYMENT_RECEIVED', latest.id)),
      });
      return send(res, sent.status, await sent.json().catch(() => null));
    }
    if (failStatus !== null) {
      const status = failStatus;
      failStatus = null;
      return send(
        res,
        status,
        status >= 500 ? undefined : invalid('invalid_action', 'Operação não permitida.'),
      );
    }
    if (req.headers.access_token !== apiKey) return send(res, 401, undefined);
    if (body === undefined) return send(res, 400, invalid('invalid_json', 'JSON inválido.'));

    const list = <T extends { deleted?: unknown; externalReference?: unknown }>(records: T[]) => {
      const reference = params.get('externalReference');
      const data = records.filter(
        (r) => !r.deleted && (reference === null || r.externalReference === reference),
      );
      const limit = Number(params.get('limit') ?? 10);
      return {
        object: 'list',
        hasMore: data.length > limit,
        totalCount: data.length,
        limit,
        offset: 0,
        data: data.slice(0, limit),
      };
    };
    if (req.method === 'GET' && path === '/v3/customers')
      return send(res, 200, list([...customers.values()]));
    if (req.method === 'GET' && path === '/v3/payments') return send(res, 200, list([...payments.values()]));

    if (req.method === 'POST' && path === '/v3/customers') {
      const b = (body ?? {}) as Record<string, unknown>;
      if (!b.name) return send(res, 400, invalid('invalid_name', 'O nome do cliente deve ser informado.'));
      if (!validDocument(b.cpfCnpj))
        return send(res, 400, invalid('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.'));
      const customer = {
        object: 'customer',
        id: id('cus'),
        dateCreated: new Date().toISOString().slice(0, 10),
        ...b,
      };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }

    if (req.method === 'POST' && path === '/v3/payments') {
      const b = (body ?? {}) as Record<string, unknown>;
      if (typeof b.customer !== 'string' || !customers.has(b.customer))
        return send(res, 400, invalid('invalid_customer', 'Cliente inválido ou não informado.'));
      if (!['UNDEFINED', 'BOLETO', 'PIX', 'CREDIT_CARD'].includes(b.billingType as string))
        return send(res, 400, invalid('invalid_billingType', 'Forma de pagamento inválida.'));
      if (typeof b.value !== 'number' || b.value <= 0)
        return send(res, 400, invalid('invalid_value', 'O valor da cobrança deve ser informado.'));
      // Asaas's "today" is Brasília's (a due date of today is refused by a UTC clock after 21:00).
      const today = dateIn('America/Sao_Paulo', now());
      if (typeof b.dueDate !== 'string' || b.dueDate < today)
        return send(
          res,
          400,
          invalid('invalid_dueDate', 'Não é permitido data de vencimento inferior a hoje.'),
        );
      const paymentId = id('pay');
      const payment: FakeAsaasPayment = {
        object: 'payment',
        id: paymentId,
        customer: b.customer,
        billingType: b.billingType as string,
        value: b.value,
        netValue: Math.round(b.value * 97) / 100,
        dueDate: b.dueDate,
        status: 'PENDING',
        description: (b.description as string) ?? null,
        externalReference: (b.externalReference as string) ?? null,
        invoiceUrl: `${base}/i/${paymentId}`,
        bankSlipUrl: b.billingType === 'PIX' ? null : `${base}/b/pdf/${paymentId}`,
        deleted: false,
      };
      payments.set(paymentId, payment);
      return send(res, 200, payment);
    }

    const match = /^\/v3\/payments\/([^/]+)(?:\/(pixQrCode|identificationField))?$/.exec(path);
    if (req.method === 'GET' && match) {
      const payment = payments.get(decodeURIComponent(match[1]));
      if (!payment) return send(res, 404, invalid('not_found', 'Cobrança não encontrada.'));
      if (!match[2]) return send(res, 200, payment);
      if (match[2] === 'pixQrCode') {
        const payload = `00020101021226820014br.gov.bcb.pix2560pix.asaas.com/qr/${payment.id}5204000053039865802BR6304ABCD`;
        return send(res, 200, {
          // A real PNG of the QR code, base64 without the data: prefix, as Asaas sends it.
          encodedImage: (await QRCode.toBuffer(payload, { type: 'png', margin: 1, width: 256 })).toString(
            'base64',
          ),
          payload,
          expirationDate: pixExpiration(payment),
        });
      }
      if (payment.billingType === 'PIX')
        return send(res, 400, invalid('invalid_action', 'Esta cobrança não possui boleto.'));
      const digits = payment.id.replace(/\D/g, '').padEnd(10, '0').slice(0, 10);
      return send(res, 200, {
        identificationField: `00190000090${digits}17000000001234567891234000${Math.round(payment.value * 100)}`,
        nossoNumero: digits,
        barCode: `0019${digits}000000000000000000000000000000`,
      });
    }
    return send(res, 404, invalid('not_found', 'Recurso não encontrado.'));
  });

  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    apiKey,
    requests,
    customers,
    payments,
    failNext: (status) => {
      failStatus = status;
    },
    stallNext: (ms, match) => {
      stall = { ms, match };
    },
    setNow: (clock) => {
      now = clock;
    },
    setPixExpiration: (of) => {
      pixExpiration = of;
    },
    webhookEvent: event,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
