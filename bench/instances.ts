/**
 * Several instances (issue 22): checkout sales/s through nginx with ONE and with TWO API instances on
 * one PostgreSQL database, in one run. nginx runs the reference configuration of
 * deploy/nginx/balcao.conf (only the upstream ports and the listen port are changed), so what is
 * measured is what deploy/ ships.
 *
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55499/postgres npx tsx bench/instances.ts
 *
 * BENCH_PG_URL is an admin URL: the script creates and drops its own database. Needs Debian's nginx
 * (`apt-get install -y nginx`). BENCH_DURATION (s, default 15), BENCH_CONNECTIONS (default 20),
 * BENCH_CATALOG (products, default 200), BENCH_ROUNDS (default 3: one, two, one, two...). The
 * scenario is the checkout bench's "tills" (bench/checkout.ts):
 * every connection is its own Caixa with an open register, each sale 10 products drawn at random from
 * the catalog with the shop's 5% coupon and a new Idempotency-Key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { couponDiscountCents } from '@balcao/core/coupon';
import { computeSaleTotals } from '@balcao/core/sale';
import pg from 'pg';
import { type Figures, load, machine, ROOT, type Server, startServer, table } from './lib.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CATALOG = Number(process.env.BENCH_CATALOG ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ITEMS = 10;
const COUPON_PERCENT = 5;
const priceOf = (i: number) => 1000 + ((i * 137) % 9000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

// ------------------------------------------------------------------------------------------ nginx

type Nginx = {
  url: string;
  dir: string;
  stop: () => Promise<void>;
  upstreamCounts: () => Map<string, number>;
};

/** deploy/nginx/balcao.conf with these instance ports and listen port, run by Debian's nginx. */
async function startNginx(instancePorts: number[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'balcao-nginx-'));
  const port = await freePort();
  const reference = readFileSync(join(ROOT, 'deploy/nginx/balcao.conf'), 'utf8');
  const servers = instancePorts
    .map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=10s;`)
    .join('\n');
  const site = reference
    .replace(
      /(upstream balcao_\w+ \{\n(?: {4}(?:least_conn|ip_hash);\n)?)(?: {4}server [^\n]+\n)+/g,
      `$1${servers}\n`,
    )
    .replace('    listen 80;\n    listen [::]:80;', `    listen 127.0.0.1:${port};`);
  if (
    !site.includes(`127.0.0.1:${port};`) ||
    (site.match(/server 127\.0\.0\.1/g) ?? []).length !== 2 * instancePorts.length
  )
    throw new Error('deploy/nginx/balcao.conf changed shape: update bench/instances.ts');
  writeFileSync(join(dir, 'balcao.conf'), site);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 1024; }
http {
  log_format upstream '$upstream_addr';
  access_log ${dir}/access.log upstream;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/balcao.conf;
}
`,
  );
  const child: ChildProcess = spawn(
    'nginx',
    ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    if ((await fetch(`${url}/v1/health`).catch(() => null))?.ok) break;
    if (i > 100) throw new Error('nginx did not start');
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    url,
    dir,
    upstreamCounts() {
      const counts = new Map<string, number>();
      for (const line of readFileSync(join(dir, 'access.log'), 'utf8').split('\n'))
        if (line) counts.set(line, (counts.get(line) ?? 0) + 1);
      return counts;
    },
    async stop() {
      child.kill('SIGQUIT');
      await new Promise((done) => child.once('exit', done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------------------------------ the shop

async function api<T>(url: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${url}/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Shop = { tills: string[]; productIds: number[]; code: string };

/** The demo shop gets the catalog (large stock), a 5% coupon and CONNECTIONS cashiers with open registers. */
async function arrange(url: string): Promise<Shop> {
  const { token: admin } = await api<{ token: string }>(url, '/login', null, {
    email: 'administrador@demo.com.br',
    password: 'demo1234',
  });
  const tag = Date.now().toString(36);
  const productIds: number[] = [];
  for (let i = 0; i < CATALOG; i++)
    productIds.push(
      (
        await api<{ id: number }>(url, '/product', admin, {
          name: `Bench ${tag} ${i}`,
          salePriceCents: priceOf(i),
          stock: 1_000_000,
        })
      ).id,
    );
  const code = `BENCH${tag}`.toUpperCase();
  await api(url, '/coupon', admin, {
    code,
    discountType: 'PERCENTAGE',
    discountValue: COUPON_PERCENT,
    startDate: new Date().toISOString().slice(0, 10),
    endDate: '2099-12-31',
  });
  const tills: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const email = `caixa${i}.${tag}@bench.local`;
    await api(url, '/user', admin, {
      name: `Caixa ${i}`,
      email,
      userTypeId: 4,
      active: true,
      password: 'bench1234',
      passwordConfirmation: 'bench1234',
    });
    const { token } = await api<{ token: string }>(url, '/login', null, { email, password: 'bench1234' });
    await api(url, '/cash-register/open', token, { openingAmountCents: 0 });
    tills.push(token);
  }
  return { tills, productIds, code };
}

function saleBody(shop: Shop): string {
  const chosen = new Set<number>();
  while (chosen.size < ITEMS) chosen.add(Math.floor(Math.random() * CATALOG));
  const indexes = [...chosen];
  const lines = indexes.map((i) => ({ unitPriceCents: priceOf(i), quantity: 1 }));
  const subtotal = computeSaleTotals({ lines }).totalCents;
  const coupon = couponDiscountCents({ discountType: 'PERCENTAGE', discountValue: COUPON_PERCENT }, subtotal);
  const amountCents = computeSaleTotals({ lines, couponDiscountCents: coupon }).finalAmountCents;
  return JSON.stringify({
    items: indexes.map((i) => ({ productId: shop.productIds[i], quantity: 1 })),
    couponCode: shop.code,
    payments: [{ method: 'pix', amountCents }],
  });
}

async function checkout(name: string, url: string, shop: Shop): Promise<Figures> {
  await api(url, '/sale', shop.tills[0], JSON.parse(saleBody(shop)));
  let client = 0;
  const figures = await load(name, {
    url: `${url}/v1/sale`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION,
    setupClient: (c) => {
      const token = shop.tills[client++ % shop.tills.length];
      c.setRequests([
        {
          setupRequest: (request) => ({
            ...request,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${token}`,
              'idempotency-key': randomUUID(),
            },
            body: saleBody(shop),
          }),
        },
      ]);
    },
  });
  await new Promise((done) => setTimeout(done, 1500));
  return figures;
}

// ------------------------------------------------------------------------------------------ run

async function main() {
  const admin = process.env.BENCH_PG_URL;
  if (!admin) throw new Error('BENCH_PG_URL (a PostgreSQL admin URL) is required');
  const name = `balcao_bench_inst_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const servers: Server[] = [];
  const rows: Figures[] = [];
  const spread: string[] = [];
  try {
    const [portA, portB] = [await freePort(), await freePort()];
    const env = { WEB_DIST: join(ROOT, '.tmp/no-web'), SECRETS_KEY: 'bench-secrets-key' };
    // The first seeds the demo shop; the second starts on the seeded database.
    servers.push(await startServer({ port: portA, databaseUrl, env }));
    servers.push(await startServer({ port: portB, databaseUrl, env: { ...env, DEMO: '0' } }));

    console.log(
      `load average before the runs: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')}`,
    );
    // Rounds alternate one and two instances, so a change in the machine's load over the run weighs
    // on both alike; the shop is arranged once.
    let shop: Shop | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const ports of [[portA], [portA, portB]]) {
        const nginx = await startNginx(ports);
        try {
          shop ??= await arrange(nginx.url);
          const label = `round ${round}: nginx -> ${ports.length} instance${ports.length > 1 ? 's' : ''}, checkout, ${CONNECTIONS} tills`;
          rows.push(await checkout(label, nginx.url, shop));
          spread.push(
            `${label}: requests per upstream ${[...nginx.upstreamCounts()].map(([k, v]) => `${k} ${v}`).join(', ')}`,
          );
        } finally {
          await nginx.stop();
        }
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    await adminClient.query(`drop database if exists ${name} with (force)`);
    await adminClient.end();
  }
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()} · ${DURATION} s per run · load average after ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}\n`,
  );
  console.log(table(rows));
  for (const line of spread) console.log(`- ${line}`);
  const total = (instances: number) =>
    rows.filter((r) => r.name.includes(`-> ${instances} instance`)).reduce((sum, r) => sum + r.requests, 0);
  if (total(1) > 0)
    console.log(`\ntwo instances / one instance, sales over all rounds: ${(total(2) / total(1)).toFixed(2)}`);
}

await main();
