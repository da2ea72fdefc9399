import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeEvolution = {
  url: string;
  apiKey: string;
  /** Bodies of the whatsappNumbers calls received. */
  checks: { instance: string; numbers: string[] }[];
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

/**
 * A local server following the Evolution API v2 contract (INTEGRATIONS.md) for number checks:
 * `POST /chat/whatsappNumbers/{instance}` {numbers} -> [{jid, exists, number}]. A wrong `apikey` is 401,
 * an instance not in `instances` is 404, with Evolution's error shape. `registered` numbers exist.
 */
export async function startFakeEvolution(options: {
  apiKey?: string;
  instances: string[];
  registered: string[];
  delayMs?: number;
}): Promise<FakeEvolution> {
  const apiKey = options.apiKey ?? 'fake-evolution-key';
  const checks: FakeEvolution['checks'] = [];
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.apikey !== apiKey) {
      return send(401, { status: 401, error: 'Unauthorized', response: { message: 'Unauthorized' } });
    }
    const m = /^\/chat\/whatsappNumbers\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) {
      return send(404, { status: 404, error: 'Not Found', response: { message: ['Cannot find route'] } });
    }
    const instance = decodeURIComponent(m[1]);
    if (!options.instances.includes(instance)) {
      return send(404, {
        status: 404,
        error: 'Not Found',
        response: { message: [`The "${instance}" instance does not exist`] },
      });
    }
    const body = (await readJson(req)) as { numbers?: unknown } | null;
    if (!body || !Array.isArray(body.numbers)) {
      return send(400, {
        status: 400,
        error: 'Bad Request',
        response: { message: ['numbers must be an array'] },
      });
    }
    const numbers = body.numbers.map(String);
    checks.push({ instance, numbers });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    return send(
      200,
      numbers.map((number) => {
        const digits = number.replace(/\D/g, '');
        return { jid: `${digits}@s.whatsapp.net`, exists: options.registered.includes(digits), number };
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    checks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
