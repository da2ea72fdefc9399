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
  key: { id: string; fromMe: boolean; remoteJid: string };
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
  /** The next N sends answer 500 (an internal failure). */
  failNext: number;
  /** A "SAIR" reply from a number, posted to the webhook as messages.upsert. */
  reply(name: string, from: string, text: string): Promise<void>;
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

const errorBody = (status: number, error: string, message: unknown[]) => ({
  status,
  error,
  response: { message },
});

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
    });
  const registeredList = [...options.registered];
  const registered = (number: string) => registeredList.includes(number.replace(/\D/g, ''));

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

  const qr = (instance: FakeInstance, number?: string) => ({
    pairingCode: number ? randomBytes(4).toString('hex').toUpperCase() : null,
    code: `2@${randomBytes(12).toString('base64')}`,
    base64: QR_PNG,
    count: instance.qrCount,
  });

  const fake: FakeEvolution = {
    url: '',
    apiKey,
    checks,
    sent,
    stored,
    now: () => Date.now(),
    findFails: false,
    instances,
    registered: registeredList,
    disconnectAfter: null,
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
    async reply(name, from, text) {
      const instance = instances.get(name);
      if (!instance) throw new Error(`no instance ${name}`);
      const record: StoredRecord = {
        id: randomBytes(12).toString('hex'),
        key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: randomBytes(8).toString('hex') },
        pushName: 'Cliente',
        message: { conversation: text },
        messageType: 'conversation',
        messageTimestamp: Math.floor(fake.now() / 1000),
        instanceId: name,
        source: 'android',
        contextInfo: null,
        MessageUpdate: [],
      };
      store(name, record);
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
      if (key !== apiKey) return send(401, errorBody(401, 'Unauthorized', ['Unauthorized']));
      const body = (await readJson(req)) as {
        instanceName?: unknown;
        integration?: unknown;
        qrcode?: unknown;
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
        token: randomBytes(16).toString('hex').toUpperCase(),
        state: 'connecting',
        qrCount: body?.qrcode ? 1 : 0,
        webhook:
          body?.webhook && typeof body.webhook.url === 'string'
            ? { url: body.webhook.url, headers: (body.webhook.headers ?? {}) as Record<string, string> }
            : null,
        owner: '5511987654321',
      };
      instances.set(name, instance);
      return send(201, {
        instance: {
          instanceName: name,
          instanceId: randomBytes(8).toString('hex'),
          integration: 'WHATSAPP-BAILEYS',
          status: 'connecting',
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
    if (key !== apiKey && key !== instance.token)
      return send(401, errorBody(401, 'Unauthorized', ['Unauthorized']));
    const route = `${req.method} ${group}/${action}`;

    switch (route) {
      case 'GET instance/connect': {
        if (instance.state === 'open') return send(200, { instance: { instanceName: name, state: 'open' } });
        // Connecting again after `refused` starts a new round of codes.
        if (instance.state === 'refused') instance.qrCount = 0;
        instance.qrCount += 1;
        if (instance.qrCount > qrLimit) {
          instance.state = 'refused';
          await emit(instance, 'connection.update', { instance: name, state: 'refused', statusReason: 401 });
          return send(200, { error: true, message: 'QR code limit reached' });
        }
        instance.state = 'connecting';
        return send(200, qr(instance, url.searchParams.get('number') ?? undefined));
      }
      case 'GET instance/connectionState':
        return send(200, { instance: { instanceName: name, state: instance.state } });
      case 'DELETE instance/logout':
        instance.state = 'close';
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
        checks.push({ instance: name, numbers });
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        return send(
          200,
          numbers.map((number) => {
            const digits = number.replace(/\D/g, '');
            return { jid: `${digits}@s.whatsapp.net`, exists: registered(digits), number };
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
            errorBody(400, 'Bad Request', [{ jid: `${number}@s.whatsapp.net`, exists: false, number }]),
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
        const remoteJid = `${number}@s.whatsapp.net`;
        // Evolution saves the message (DATABASE_SAVE_DATA_NEW_MESSAGE) before it answers.
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
