import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny PNG (a dark square) standing in for the QR image. */
const QR_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAAAAAA6mKC9AAAAGklEQVR4nGNgGAWjYBSMglEwCkbBKBgFgwUAKBAAAW2Kx0cAAAAASUVORK5CYII=';

export type FakeInstance = {
  name: string;
  token: string;
  state: 'open' | 'connecting' | 'close' | 'refused';
  qrCount: number;
  webhook: { url: string; headers: Record<string, string> } | null;
  /** The number that scans the QR (wuid). */
  owner: string;
  /**
   * The number a pairing code was asked for: set only by a connect (or create) while the state is
   * `close`, as Evolution's connectToWhatsapp(number) does; a connect while `connecting` ignores it.
   */
  pairingNumber: string | null;
  pairingCode: string | null;
};

export type SentMessage = {
  instance: string;
  number: string;
  text: string;
  media?: string;
  mimetype?: string;
  at: number;
};

/** A message as Evolution's database keeps it (what /chat/findMessages answers). */
export type StoredRecord = {
  id: string;
  key: { id: string; fromMe: boolean; remoteJid: string; senderPn?: string; addressingMode?: string };
  pushName: string;
  messageType: string;
  message: Record<string, unknown>;
  messageTimestamp: number;
  instanceId: string;
  source: string;
  contextInfo: null;
  MessageUpdate: { status: string }[];
};

export type FakeEvolution = {
  url: string;
  apiKey: string;
  /** Bodies of the whatsappNumbers calls received. */
  checks: { instance: string; numbers: string[] }[];
  /** Every message accepted by sendText / sendMedia, in order. */
  sent: SentMessage[];
  /** Every message Evolution stored (sent and received), per instance name. */
  stored: Map<string, StoredRecord[]>;
  /** Evolution's clock (ms) for messageTimestamp; tests hand the worker's clock here. */
  now: () => number;
  /** Answer findMessages with 500 while true (Evolution's database unreachable). */
  findFails: boolean;
  instances: Map<string, FakeInstance>;
  /** Numbers that have WhatsApp (digits); tests may add to it. */
  registered: string[];
  /** The phone scans the QR: the instance opens and the webhook says so. */
  scan(name: string): Promise<void>;
  /** The phone disconnects (close), with the webhook. */
  disconnect(name: string): Promise<void>;
  /** Disconnect by itself once this many messages were accepted in total. */
  disconnectAfter: number | null;
  /** How long instance/create waits before answering (Evolution 2.3: at least 5 s; tests keep it short). */
  createDelayMs: number;
  /** The next N sends answer 500 (an internal failure). */
  failNext: number;
  /**
   * A reply from a number, posted to the webhook as messages.upsert. `from` as Evolution keys it:
   * digits (a 12-digit Brazilian mobile for DDD 31+, as createJid stores it), or `lid` to send the
   * sender as `NNN@lid` with the number only in `key.senderPn` (or in no field: `pn: null`).
   */
  reply(
    name: string,
    from: string,
    text: string,
    options?: { lid?: string; pn?: string | null },
  ): Promise<void>;
  /**
   * Whether Evolution stores messages (DATABASE_SAVE_DATA_NEW_MESSAGE=true): off stores nothing and
   * findMessages answers an empty page, as the real server does.
   */
  saveMessages: boolean;
  close: () => Promise<void>;
};

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

const errorBody = (status: number, error: string, message: unknown[] | string) => ({
  status,
  error,
  response: { message },
});

/** Evolution's 401 (UnauthorizedException without arguments): `message` is a string, not an array. */
const unauthorizedBody = () => errorBody(401, 'Unauthorized', 'Unauthorized');

/**
 * Evolution 2.3 `createJid` for a plain number (src/utils/createJid.ts, formatBRNumber): a Brazilian
 * 13-digit mobile whose DDD is 31 or more and whose number starts with 7-9 loses the ninth digit.
 */
export function evolutionJid(number: string): string {
  const digits = number.replace(/\D/g, '');
  const m = /^(\d{2})(\d{2})\d(\d{8})$/.exec(digits);
  if (m && m[1] === '55' && Number(m[3][0]) >= 7 && Number(m[2]) >= 31)
    return `${m[1]}${m[2]}${m[3]}@s.whatsapp.net`;
  return `${digits}@s.whatsapp.net`;
}

/** The 13-digit form of a Brazilian mobile (WhatsApp's account), whichever way it was written. */
const accountOf = (number: string) => {
  const digits = number.replace(/\D/g, '');
  return /^55[1-9][1-9][6-9]\d{7}$/.test(digits) ? `${digits.slice(0, 4)}9${digits.slice(4)}` : digits;
};

/**
 * A local server following the Evolution API v2 contract (INTEGRATIONS.md): instance create /
 * connect (QR, pairing code, refused after `qrLimit` codes) / connectionState / logout / delete,
 * chat whatsappNumbers / fetchProfilePictureUrl, message sendText / sendMedia, and webhooks
 * (connection.update, messages.upsert) posted to the URL given at create with its headers.
 * Unknown instance 404 before the key check; bad key 401; name in use 403; errors in Evolution's
 * shape. `instances` exist from the start (open, with the global key); `registered` numbers exist.
 */
export async function startFakeEvolution(options: {
  apiKey?: string;
  instances: string[];
  registered: string[];
  delayMs?: number;
  /** instance/create's wait before answering (default 5000, as the real service). */
  createDelayMs?: number;
  port?: number;
  qrLimit?: number;
  /** How webhooks reach the API (default: HTTP POST to the URL). Tests hand app.inject here. */
  deliver?: (url: string, headers: Record<string, string>, body: unknown) => Promise<void>;
}): Promise<FakeEvolution> {
  const apiKey = options.apiKey ?? 'fake-evolution-key';
  const qrLimit = options.qrLimit ?? 30;
  const checks: FakeEvolution['checks'] = [];
  const sent: SentMessage[] = [];
  const stored = new Map<string, StoredRecord[]>();
  const store = (name: string, record: StoredRecord) => {
    const list = stored.get(name) ?? [];
    list.push(record);
    stored.set(name, list);
  };
  const instances = new Map<string, FakeInstance>();
  for (const name of options.instances)
    instances.set(name, {
      name,
      token: apiKey,
      state: 'open',
      qrCount: 0,
      webhook: null,
      owner: '5511900000000',
      pairingNumber: null,
      pairingCode: null,
    });
  const registeredList = [...options.registered];
  // WhatsApp finds a Brazilian mobile with or without its ninth digit.
  const registered = (number: string) =>
    registeredList.some((r) => accountOf(r) === accountOf(number.split('@')[0]));

  const deliver =
    options.deliver ??
    (async (url: string, headers: Record<string, string>, body: unknown) => {
      await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    });

  async function emit(instance: FakeInstance, event: string, data: unknown) {
    if (!instance.webhook) return;
    await deliver(instance.webhook.url, instance.webhook.headers, {
      event,
      instance: instance.name,
      data,
      destination: instance.webhook.url,
      date_time: new Date().toISOString(),
      sender: `${instance.owner}@s.whatsapp.net`,
      server_url: 'http://fake-evolution',
      apikey: instance.token,
    });
  }

  // Evolution answers the instance's current QR; the pairing code exists only for a number given
  // when the connection started from `close` (connectToWhatsapp(number), then requestPairingCode).
  const qr = (instance: FakeInstance) => ({
    pairingCode: instance.pairingNumber ? instance.pairingCode : null,
    code: `2@${randomBytes(12).toString('base64')}`,
    base64: QR_PNG,
    count: instance.qrCount,
  });
  /** Starts a connection from `close` (or at create), with a pairing code when a number is given. */
  const startConnecting = (instance: FakeInstance, number: string | null) => {
    instance.state = 'connecting';
    instance.pairingNumber = number ? number.replace(/\D/g, '') : null;
    instance.pairingCode = number ? randomBytes(4).toString('hex').toUpperCase() : null;
  };

  const fake: FakeEvolution = {
    url: '',
    apiKey,
    checks,
    sent,
    stored,
    now: () => Date.now(),
    findFails: false,
    saveMessages: true,
    instances,
    registered: registeredList,
    disconnectAfter: null,
    createDelayMs: options.createDelayMs ?? 5000,
    failNext: 0,
    async scan(name) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      instance.state = 'open';
      await emit(instance, 'connection.update', {
        instance: name,
        wuid: `${instance.owner}@s.whatsapp.net`,
        profileName: 'Loja Demo',
        state: 'open',
        statusReason: 200,
      });
    },
    async disconnect(name) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      instance.state = 'close';
      await emit(instance, 'connection.update', { instance: name, state: 'close', statusReason: 428 });
    },
    async reply(name, from, text, options = {}) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      const pn = options.pn === undefined ? `${from}@s.whatsapp.net` : options.pn;
      const key = options.lid
        ? {
            remoteJid: `${options.lid}@lid`,
            fromMe: false,
            id: randomBytes(8).toString('hex'),
            ...(pn ? { senderPn: pn } : {}),
            addressingMode: 'lid',
          }
        : { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: randomBytes(8).toString('hex') };
      const record: StoredRecord = {
        id: randomBytes(12).toString('hex'),
        key,
        pushName: 'Cliente',
        message: { conversation: text },
        messageType: 'conversation',
        messageTimestamp: Math.floor(fake.now() / 1000),
        instanceId: name,
        source: 'android',
        contextInfo: null,
        MessageUpdate: [],
      };
      if (fake.saveMessages) store(name, record);
      const { id: _id, instanceId: _i, contextInfo: _c, MessageUpdate: _u, ...data } = record;
      await emit(instance, 'messages.upsert', data);
    },
    close: async () => {},
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = req.headers.apikey;

    // Test hooks for the browser flow (not Evolution's): the phone scans, a customer replies.
    const hook = /^\/__fake\/(scan|disconnect)\/([^/]+)$/.exec(url.pathname);
    if (hook && req.method === 'POST') {
      const name = decodeURIComponent(hook[2]);
      if (!instances.has(name)) return send(404, errorBody(404, 'Not Found', ['no such instance']));
      await (hook[1] === 'scan' ? fake.scan(name) : fake.disconnect(name));
      return send(200, { ok: true });
    }
    if (url.pathname === '/__fake/sent' && req.method === 'GET') return send(200, sent);

    if (req.method === 'POST' && url.pathname === '/instance/create') {
      if (key !== apiKey) return send(401, unauthorizedBody());
      const body = (await readJson(req)) as {
        instanceName?: unknown;
        integration?: unknown;
        qrcode?: unknown;
        token?: unknown;
        number?: unknown;
        webhook?: { url?: unknown; headers?: unknown; enabled?: unknown };
      } | null;
      const name = typeof body?.instanceName === 'string' ? body.instanceName : '';
      if (!name) return send(400, errorBody(400, 'Bad Request', ['instanceName is required']));
      if (body?.integration !== 'WHATSAPP-BAILEYS')
        return send(400, errorBody(400, 'Bad Request', ['Invalid integration']));
      if (instances.has(name))
        return send(403, errorBody(403, 'Forbidden', [`This name "${name}" is already in use.`]));
      const instance: FakeInstance = {
        name,
        // The caller's own token when given (a timed-out create can be recovered), else a new one.
        token:
          typeof body?.token === 'string' && body.token
            ? body.token
            : randomBytes(16).toString('hex').toUpperCase(),
        state: 'close',
        qrCount: body?.qrcode ? 1 : 0,
        pairingNumber: null,
        pairingCode: null,
        webhook:
          body?.webhook && typeof body.webhook.url === 'string'
            ? { url: body.webhook.url, headers: (body.webhook.headers ?? {}) as Record<string, string> }
            : null,
        owner: '5511987654321',
      };
      // The instance exists at once; the answer comes after Evolution's internal delay (5 s in 2.3),
      // so a client that gives up first leaves it created.
      instances.set(name, instance);
      if (body?.qrcode) startConnecting(instance, typeof body.number === 'string' ? body.number : null);
      if (fake.createDelayMs > 0) await new Promise((r) => setTimeout(r, fake.createDelayMs));
      return send(201, {
        instance: {
          instanceName: name,
          instanceId: randomBytes(8).toString('hex'),
          integration: 'WHATSAPP-BAILEYS',
          status: instance.state,
        },
        hash: instance.token,
        webhook: body?.webhook ?? {},
        websocket: {},
        rabbitmq: {},
        nats: {},
        sqs: {},
        settings: {
          rejectCall: false,
          groupsIgnore: true,
          alwaysOnline: false,
          readMessages: false,
          readStatus: false,
          syncFullHistory: false,
        },
        ...(body?.qrcode ? { qrcode: qr(instance) } : {}),
      });
    }

    const m = /^\/(instance|chat|message|webhook)\/([A-Za-z]+)\/([^/]+)$/.exec(url.pathname);
    if (!m) return send(404, errorBody(404, 'Not Found', ['Cannot find route']));
    const [, group, action, rawName] = m;
    const name = decodeURIComponent(rawName);
    const instance = instances.get(name);
    if (!instance) return send(404, errorBody(404, 'Not Found', [`The "${name}" instance does not exist`]));
    if (key !== apiKey && key !== instance.token) return send(401, unauthorizedBody());
    const route = `${req.method} ${group}/${action}`;

    switch (route) {
      case 'GET instance/connect': {
        if (instance.state === 'open') return send(200, { instance: { instanceName: name, state: 'open' } });
        // Connecting again after `refused` starts a new round of codes.
        if (instance.state === 'refused') instance.qrCount = 0;
        // A new QR code since the last call (Evolution refreshes it on its own while connecting).
        instance.qrCount += 1;
        if (instance.qrCount > qrLimit) {
          instance.state = 'refused';
          await emit(instance, 'connection.update', { instance: name, state: 'refused', statusReason: 401 });
          return send(200, { error: true, message: 'QR code limit reached' });
        }
        // instance.controller connectToWhatsapp: while `connecting` it answers the current QR and
        // ignores `number`; from `close` (or `refused`) it starts again with the number.
        if (instance.state !== 'connecting') startConnecting(instance, url.searchParams.get('number'));
        return send(200, qr(instance));
      }
      case 'GET instance/connectionState':
        return send(200, { instance: { instanceName: name, state: instance.state } });
      case 'DELETE instance/logout':
        // instance.controller logout: BadRequestException when the state is already `close`.
        if (instance.state === 'close')
          return send(400, errorBody(400, 'Bad Request', [`The "${name}" instance is not connected`]));
        instance.state = 'close';
        instance.pairingNumber = null;
        instance.pairingCode = null;
        return send(200, { status: 'SUCCESS', error: false, response: { message: 'Instance logged out' } });
      case 'DELETE instance/delete':
        instances.delete(name);
        return send(200, { status: 'SUCCESS', error: false, response: { message: 'Instance deleted' } });
      case 'POST chat/fetchProfilePictureUrl': {
        const body = (await readJson(req)) as { number?: unknown } | null;
        return send(200, {
          wuid: `${String(body?.number ?? '')}@s.whatsapp.net`,
          profilePictureUrl: 'https://pps.whatsapp.net/v/fake-profile.jpg',
        });
      }
      case 'POST chat/whatsappNumbers': {
        const body = (await readJson(req)) as { numbers?: unknown } | null;
        if (!body || !Array.isArray(body.numbers))
          return send(400, errorBody(400, 'Bad Request', ['numbers must be an array']));
        const numbers = body.numbers.map(String);
        // chat.schema whatsappNumberSchema: `uniqueItems: true`, one duplicate refuses the batch.
        if (new Set(numbers).size !== numbers.length)
          return send(400, errorBody(400, 'Bad Request', ['numbers must NOT have duplicate items']));
        checks.push({ instance: name, numbers });
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        return send(
          200,
          numbers.map((number) => {
            const digits = number.replace(/\D/g, '');
            return { jid: evolutionJid(digits), exists: registered(digits), number };
          }),
        );
      }
      case 'POST message/sendText':
      case 'POST message/sendMedia': {
        const body = (await readJson(req)) as {
          number?: unknown;
          text?: unknown;
          caption?: unknown;
          media?: unknown;
          mimetype?: unknown;
        } | null;
        const number = String(body?.number ?? '').replace(/\D/g, '');
        if (!number) return send(400, errorBody(400, 'Bad Request', ['number is required']));
        if (instance.state !== 'open') return send(400, errorBody(400, 'Bad Request', ['Connection Closed']));
        if (fake.failNext > 0) {
          fake.failNext -= 1;
          return send(500, errorBody(500, 'Internal Server Error', ['Timed Out']));
        }
        if (!registered(number))
          return send(
            400,
            errorBody(400, 'Bad Request', [{ jid: evolutionJid(number), exists: false, number }]),
          );
        const text = String(action === 'sendText' ? (body?.text ?? '') : (body?.caption ?? ''));
        const media = action === 'sendMedia' ? String(body?.media) : undefined;
        sent.push({
          instance: name,
          number,
          text,
          media,
          mimetype: typeof body?.mimetype === 'string' ? body.mimetype : undefined,
          at: fake.now(),
        });
        const id = randomBytes(10).toString('hex').toUpperCase();
        const message =
          action === 'sendText'
            ? { conversation: text }
            : { imageMessage: { caption: text, mimetype: body?.mimetype ?? 'image/jpeg' } };
        const timestamp = Math.floor(fake.now() / 1000);
        // createJid: a DDD 31+ mobile is keyed with 12 digits.
        const remoteJid = evolutionJid(number);
        // Evolution saves the message before it answers, only with DATABASE_SAVE_DATA_NEW_MESSAGE=true.
        if (fake.saveMessages)
          store(name, {
            id: randomBytes(12).toString('hex'),
            key: { remoteJid, fromMe: true, id },
            pushName: '',
            messageType: action === 'sendText' ? 'conversation' : 'imageMessage',
            message,
            messageTimestamp: timestamp,
            instanceId: name,
            source: 'unknown',
            contextInfo: null,
            MessageUpdate: [],
          });
        send(201, {
          key: { remoteJid, fromMe: true, id },
          pushName: '',
          status: 'PENDING',
          message,
          messageType: action === 'sendText' ? 'conversation' : 'imageMessage',
          messageTimestamp: timestamp,
          instanceId: name,
          source: 'unknown',
        });
        if (fake.disconnectAfter !== null && sent.length >= fake.disconnectAfter) {
          fake.disconnectAfter = null;
          await fake.disconnect(name);
        }
        return;
      }
      case 'POST chat/findMessages': {
        // Evolution 2.3 (chat.service fetchMessages): key filters on id/fromMe/remoteJid, the time
        // filter only when both gte and lte are given (dates, compared in seconds), newest first,
        // `offset` records per page (50 by default).
        if (fake.findFails) return send(500, errorBody(500, 'Internal Server Error', ['Database error']));
        const body = ((await readJson(req)) ?? {}) as {
          where?: {
            key?: { id?: unknown; fromMe?: unknown; remoteJid?: unknown };
            messageTimestamp?: { gte?: unknown; lte?: unknown };
          };
          page?: unknown;
          offset?: unknown;
        };
        const key = body.where?.key ?? {};
        const range = body.where?.messageTimestamp;
        const seconds = (v: unknown) => Math.floor(new Date(String(v)).getTime() / 1000);
        const matching = (stored.get(name) ?? [])
          .filter(
            (r) =>
              (!key.id || r.key.id === key.id) &&
              (!key.fromMe || r.key.fromMe === key.fromMe) &&
              (!key.remoteJid || r.key.remoteJid === key.remoteJid) &&
              (!range?.gte ||
                !range?.lte ||
                (r.messageTimestamp >= seconds(range.gte) && r.messageTimestamp <= seconds(range.lte))),
          )
          .sort((a, b) => b.messageTimestamp - a.messageTimestamp);
        const offset = typeof body.offset === 'number' && body.offset > 0 ? body.offset : 50;
        const page = typeof body.page === 'number' && body.page > 0 ? body.page : 1;
        return send(200, {
          messages: {
            total: matching.length,
            pages: Math.ceil(matching.length / offset),
            currentPage: page,
            records: matching.slice(offset * (page - 1), offset * page),
          },
        });
      }
      default:
        return send(404, errorBody(404, 'Not Found', ['Cannot find route']));
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        res.writeHead(500).end(JSON.stringify(errorBody(500, 'Internal Server Error', [String(error)])));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
