/**
 * Pix confirmed by the bank (issue 33), against a production start with the demo shop and the local
 * fake PSP (apps/api/test/fakes/pix-psp.ts, mutual TLS, Efí-style webhook hmac):
 * - webhook -> "Pago": BENCH_PIX_CHARGES charges one after the other; each is paid at the fake (which
 *   posts the webhook at once) and the time is taken until the PDV's path says "Pago": the socket's
 *   `pix` change arrives and the charge the PDV then reads (GET /v1/pix/charge/:txid) is paid.
 *   Target p95 < 2 s.
 * - burst: BENCH_PIX_BURST_CHARGES charges, then 1,000 webhook posts (each Pix once, 30% repeats,
 *   shuffled: out of order) sent 20 at a time to the shop's webhook; every charge must end paid by
 *   its own Pix, exactly once (no Pix to reconcile, none left pending), and no post may get a 5xx.
 *
 *   npx tsx bench/pix.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { makePixCerts, startFakePsp } from '../apps/api/test/fakes/pix-psp.ts';
import { machine, startServer } from './lib.ts';

const CHARGES = Number(process.env.BENCH_PIX_CHARGES ?? 40);
const BURST_CHARGES = Number(process.env.BENCH_PIX_BURST_CHARGES ?? 700);
const BURST_POSTS = 1000;
const CONCURRENCY = 20;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
}

const certs = makePixCerts();
const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-pix-'));
writeFileSync(join(dir, 'ca.pem'), certs.caPem);
const fake = await startFakePsp({ certs, clientId: 'Client_Id_bench', clientSecret: 'Client_Secret_bench' });
fake.webhook = { copies: 1, reverse: false, drop: false, retryMs: 200, maxAttempts: 5 };
const port = 3300 + Math.floor(Math.random() * 500);
const server = await startServer({
  port,
  env: {
    SECRETS_KEY: 'bench-secrets-key-bench-secrets-key',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PIX_CA_FILE: join(dir, 'ca.pem'),
    PIX_FAKE_URL: fake.apiUrl.replace(/\/v2$/, ''),
    OUTBOUND_ALLOW_PRIVATE: 'true',
  },
});

try {
  const login = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'administrador@demo.com.br', password: 'demo1234' }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: body === undefined ? { authorization: auth.authorization } : auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  await call('PUT', '/pix/account', {
    provider: 'fake',
    environment: 'production',
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    certificate: { format: 'pem', certPem: certs.clientCertPem, keyPem: certs.clientKeyPem },
    pixKey: 'bench@demo.com.br',
  });
  const tested = await call<{ ok: boolean }>('POST', '/pix/account/test');
  if (!tested.ok) throw new Error('the fake PSP account did not test ok');
  const me = await call<{ user: { client: { id: number } } }>('GET', '/user/me');
  type Charge = { txid: string; status: string; endToEndId: string | null };
  const newCharge = (amountCents: number) =>
    call<Charge>('POST', '/pix/charge', { attemptKey: `bench-${randomUUID()}`, amountCents });

  // 1. webhook -> "Pago" as the PDV sees it.
  const socket = io(server.url, {
    path: '/socket.io',
    query: { key: 'balcao-public-key' },
    auth: { token },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.emitWithAck('joinChannel', `notifications_${me.user.client.id}`);
  const latencies: number[] = [];
  for (let i = 0; i < CHARGES; i++) {
    const c = await newCharge(1000 + i);
    const paid = new Promise<number>((resolve) => {
      const listener = async (change: { resource?: string } | undefined) => {
        if (change?.resource !== 'pix') return;
        const now = await call<Charge>('GET', `/pix/charge/${c.txid}`);
        if (now.status !== 'paid') return;
        socket.off('change', listener);
        resolve(performance.now());
      };
      socket.on('change', listener);
    });
    const t0 = performance.now();
    await fake.pay(c.txid);
    latencies.push((await paid) - t0);
  }
  socket.disconnect();
  latencies.sort((a, b) => a - b);

  // 2. The burst: 1,000 posts, 30% repeats, shuffled.
  const charges: Charge[] = [];
  for (let i = 0; i < BURST_CHARGES; i += 10)
    charges.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => newCharge(500 + i + j)))));
  const hook = [...fake.webhooks.values()].at(-1) ?? '';
  const target = `${hook}/pix`;
  const horario = new Date().toISOString();
  const pixes = charges.map((c, i) => ({
    endToEndId: `E00000000${String(Date.now()).slice(-8)}${String(i).padStart(6, '0')}bench0`.slice(0, 32),
    txid: c.txid,
    valor: ((500 + i) / 100).toFixed(2),
    horario,
  }));
  const posts = [...pixes];
  while (posts.length < BURST_POSTS) posts.push(pixes[Math.floor(Math.random() * pixes.length)]);
  for (let i = posts.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [posts[i], posts[j]] = [posts[j], posts[i]];
  }
  const statuses = new Map<number, number>();
  const postMs: number[] = [];
  const burstStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < posts.length) {
        const pix = posts[next++];
        const t = performance.now();
        const res = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pix: [pix] }),
        });
        await res.body?.cancel();
        postMs.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const burstMs = performance.now() - burstStart;
  // Settled: every charge paid by its own Pix (the queue may still be working right after the posts).
  let settled: Charge[] = [];
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    settled = [];
    for (let i = 0; i < charges.length; i += 20)
      settled.push(
        ...(await Promise.all(
          charges.slice(i, i + 20).map((c) => call<Charge>('GET', `/pix/charge/${c.txid}`)),
        )),
      );
    if (settled.every((c) => c.status === 'paid')) break;
    await sleep(500);
  }
  const allSettledMs = performance.now() - burstStart;
  const rightPix = settled.filter((c, i) => c.status === 'paid' && c.endToEndId === pixes[i].endToEndId);
  const pending = await call<unknown[]>('GET', '/pix/pending');
  postMs.sort((a, b) => a - b);

  console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
  console.log('| measure | figure |\n|---|---|');
  console.log(
    `| webhook -> "Pago" (socket change + the charge read paid), ${CHARGES} charges | p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${Math.round(latencies.at(-1) ?? 0)} ms |`,
  );
  console.log(
    `| burst: ${posts.length} posts (${pixes.length} Pix, ${posts.length - pixes.length} repeats, shuffled), ${CONCURRENCY} at a time | ${Math.round(burstMs)} ms; post p50 ${percentile(postMs, 50)} ms, p95 ${percentile(postMs, 95)} ms |`,
  );
  console.log(`| answers | ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')} |`);
  console.log(
    `| charges paid by their own Pix | ${rightPix.length} of ${charges.length} (all settled ${Math.round(allSettledMs)} ms after the first post) |`,
  );
  console.log(`| Pix to reconcile (a repeat counted twice would show here) | ${pending.length} |`);
  const ok =
    percentile(latencies, 95) < 2000 &&
    rightPix.length === charges.length &&
    pending.length === 0 &&
    ![...statuses.keys()].some((s) => s >= 500);
  console.log(`\n${ok ? 'PASS' : 'FAIL'}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  await fake.close();
}
