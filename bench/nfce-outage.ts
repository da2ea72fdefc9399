/**
 * NFC-e with a failing SEFAZ (issue 32): BENCH_SALES sales (default 10,000) from two tills at once (two
 * API clients, the demo shop's Administrador and Caixa, each with their own register) while the fake
 * SEFAZ fails at random - calls held until the client gives up (timeout), answered 500, or processed
 * with the answer lost on the way back - and goes away now and then (the link or SEFAZ down). The
 * "minutes" of the issue are scaled down: an outage of BENCH_OUTAGE_S (default 20 s) every
 * BENCH_OUTAGE_EVERY_S (default 90 s), SEFAZ_TIMEOUT_MS 1.5 s. Then the link returns and the app's own
 * background jobs (fiscal-transmit, fiscal-sweep) settle everything, and the bench checks against the
 * fake SEFAZ's own records:
 *   - 0 numbers reused: no number authorised under two keys, none both authorised and voided;
 *   - 0 gaps that are not voided: every number from 1 to the last is authorised or inutilizado;
 *   - every sale's note authorised exactly once: one note per sale, authorised in the app with the
 *     protocol SEFAZ holds for its key, and no note at SEFAZ the app does not hold as authorised.
 * Then the backlog: SEFAZ away, BENCH_BACKLOG sales (default 2,000) go out in contingency (tpEmis 9);
 * SEFAZ returns and the time until the last one is authorised is taken (target < 10 min).
 *
 * The API runs in this process (app + job runner on a PGlite folder) so the bench reads the
 * database at the end; the sales go over HTTP like a PDV's.
 *
 *   npx tsx bench/nfce-outage.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { testConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { backgroundJobs } from '../apps/api/src/jobs.ts';
import { newInstanceId, startJobRunner } from '../apps/api/src/lib/jobs.ts';
import { seedDemo } from '../apps/api/src/seed.ts';
import { startFakeSefaz } from '../apps/api/test/fakes/sefaz.ts';
import { makeA1 } from '../apps/api/test/fakes/sefazCerts.ts';
import { machine } from './lib.ts';

const SALES = Number(process.env.BENCH_SALES ?? 10_000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 2_000);
const OUTAGE_S = Number(process.env.BENCH_OUTAGE_S ?? 20);
const OUTAGE_EVERY_S = Number(process.env.BENCH_OUTAGE_EVERY_S ?? 90);
/** BENCH_SELL_UNTIL (an ISO time): the tills stop there even short of BENCH_SALES (a shared machine). */
const SELL_UNTIL = process.env.BENCH_SELL_UNTIL ? Date.parse(process.env.BENCH_SELL_UNTIL) : Infinity;
const CHAOS = { timeout: 0.03, error5xx: 0.05, lostAnswer: 0.05 };
const CNPJ = '11222333000181';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const log = (...args: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...args);

const sefaz = await startFakeSefaz();
const dir = mkdtempSync(join(tmpdir(), 'balcao-bench-nfce-outage-'));
writeFileSync(join(dir, 'ca.pem'), sefaz.caPem);
const database = await openDatabase({ dataDir: join(dir, 'data') });
await seedDemo(database.db);
const config = testConfig({
  sefaz: { localUrl: sefaz.url, caFile: join(dir, 'ca.pem'), timeoutMs: 1500 },
});
const app = await buildApp({ db: database.db, config });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const base = `http://127.0.0.1:${address.port}/v1`;
const jobs = startJobRunner(database.db, backgroundJobs(app.ctx), {
  instanceId: newInstanceId(),
  pollMs: 1000,
  onError: (error, job) => log(`job ${job} failed`, error),
});

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}
async function login(email: string) {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  return ((await res.json()) as { token: string }).token;
}

const admin = await login('administrador@demo.com.br');
const cashier = await login('caixa@demo.com.br');
for (const token of [admin, cashier])
  await call(token, 'POST', '/cash-register/open', { openingAmountCents: 10000 }).catch(() => undefined);
const settings = {
  enabled: false,
  environment: 'local',
  cnpj: CNPJ,
  ie: '9044016688',
  legalName: 'Lanchonete Bench Ltda',
  tradeName: 'Lanchonete',
  crt: '1',
  uf: 'PR',
  cityCode: '4106902',
  cityName: 'Curitiba',
  street: 'Rua XV de Novembro',
  streetNumber: '100',
  district: 'Centro',
  zipCode: '80020-310',
  series: 1,
  nextNumber: 1,
  cscId: '000001',
  csc: 'GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G',
  defaults: { ncm: '21069090', cfop: '5102', csosn: '102', origin: '0', cest: null, unit: 'UN' },
};
const a1 = makeA1(sefaz.ca, { cnpj: CNPJ, name: 'LANCHONETE BENCH LTDA', password: 'senha-a1' });
await call(admin, 'PUT', '/fiscal/settings', settings);
await call(admin, 'POST', '/fiscal/certificate', { pfxBase64: a1.pfxBase64, password: 'senha-a1' });
await call(admin, 'PUT', '/fiscal/settings', { ...settings, enabled: true, csc: '' });
const product = await call<{ id: number }>(admin, 'POST', '/product', {
  name: 'Coxinha bench',
  salePriceCents: 650,
  stockControl: false,
});

let saleErrors = 0;
let sold = 0;
async function till(token: string, count: number) {
  for (let i = 0; i < count; i++) {
    if (Date.now() > SELL_UNTIL) break;
    if (++sold % 500 === 0) log(`${sold} sales`);
    try {
      await call(token, 'POST', '/sale', {
        items: [{ productId: product.id, quantity: 1 + (i % 3) }],
        payments: [{ method: 'money', amountCents: 2000 }],
        cashDepositAmountCents: 2000,
      });
    } catch (error) {
      saleErrors++;
      if (saleErrors <= 5) log('sale failed', (error as Error).message);
    }
  }
}

type Count = { status: string; n: number };
async function statusCounts(): Promise<Record<string, number>> {
  const result = (await database.db.execute(
    sql`select status, count(*)::int as n from fiscal_notes group by status`,
  )) as unknown as { rows: Count[] };
  return Object.fromEntries(result.rows.map((r) => [r.status, Number(r.n)]));
}
async function salesCount(): Promise<number> {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from sales where status = 'finished' and client_id = (select client_id from fiscal_settings limit 1)`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0].n);
}

/** Waits until every sale has its note and none is pending, in contingency or queued. */
async function settle(what: string, limitMs: number) {
  const start = Date.now();
  let last = '';
  while (Date.now() - start < limitMs) {
    const counts = await statusCounts();
    const notes = Object.values(counts).reduce((s, n) => s + n, 0);
    const open = (counts.pending ?? 0) + (counts.contingency ?? 0) + (counts.queued ?? 0);
    const line = JSON.stringify(counts);
    if (line !== last) log(what, line);
    last = line;
    if (open === 0 && notes >= (await salesCount())) return Date.now() - start;
    await sleep(1000);
  }
  throw new Error(`${what}: not settled in ${limitMs / 1000} s`);
}

// ---------------------------------------------------------------------------------------------
// Phase 1: two tills, SEFAZ failing at random and going away for a while.

log(`phase 1: ${SALES} sales from two tills, chaos ${JSON.stringify(CHAOS)}`);
sefaz.chaos = CHAOS;
let selling = true;
let outages = 0;
const outageLoop = (async () => {
  while (selling) {
    await sleep(OUTAGE_EVERY_S * 1000);
    if (!selling) break;
    outages++;
    log(`SEFAZ away for ${OUTAGE_S} s`);
    await sefaz.goAway();
    await sleep(OUTAGE_S * 1000);
    await sefaz.comeBack();
    log('SEFAZ back');
  }
})();
const phase1Start = Date.now();
await Promise.all([till(admin, Math.ceil(SALES / 2)), till(cashier, Math.floor(SALES / 2))]);
const sellingMs = Date.now() - phase1Start;
selling = false;
log(`sales done in ${(sellingMs / 1000).toFixed(0)} s (${saleErrors} failed); the link returns, chaos off`);
await outageLoop.catch(() => undefined);
sefaz.chaos = null;
// Notes a crash-like timeout left pending are retried by the job 2 minutes after their creation.
const settleMs = await settle('phase 1', 30 * 60_000);
// The sweep voids what will never be authorised: wait for a sweep after the last rejection.
await sleep(65_000);
const phase1 = await invariants();
log('phase 1 invariants', JSON.stringify(phase1));

// ---------------------------------------------------------------------------------------------
// Phase 2: the backlog.

log(`phase 2: SEFAZ away, ${BACKLOG} sales in contingency`);
await sefaz.goAway();
const before = (await statusCounts()).authorised ?? 0;
await Promise.all([till(admin, Math.ceil(BACKLOG / 2)), till(cashier, Math.floor(BACKLOG / 2))]);
await vWait(async () => ((await statusCounts()).contingency ?? 0) >= BACKLOG, 10 * 60_000);
log('backlog in contingency; SEFAZ returns');
await sefaz.comeBack();
const backlogStart = Date.now();
await vWait(async () => (await statusCounts()).authorised - before >= BACKLOG, 30 * 60_000);
const backlogMs = Date.now() - backlogStart;
const phase2 = await invariants();
log('phase 2 invariants', JSON.stringify(phase2));

async function vWait(done: () => Promise<boolean>, limitMs: number) {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > limitMs) throw new Error('timed out');
    await sleep(500);
  }
}

/** The three checks, against what the fake SEFAZ holds. */
async function invariants() {
  const { rows } = (await database.db.execute(sql`
    select n.sale_id, n.number, n.status, n.access_key, n.protocol from fiscal_notes n
    join fiscal_settings f on f.client_id = n.client_id`)) as unknown as {
    rows: {
      sale_id: number | null;
      number: number;
      status: string;
      access_key: string;
      protocol: string | null;
    }[];
  };
  const atSefaz = [...sefaz.notes.values()].filter((n) => n.cnpj === CNPJ);
  const voids = sefaz.voids.filter((v) => v.cnpj === CNPJ);
  const voided = (n: number) => voids.some((v) => n >= v.from && n <= v.to);
  const byNumber = new Map<number, number>();
  for (const n of atSefaz) byNumber.set(n.number, (byNumber.get(n.number) ?? 0) + 1);
  const reused =
    [...byNumber.values()].filter((c) => c > 1).length + atSefaz.filter((n) => voided(n.number)).length;
  const last = Math.max(0, ...rows.map((r) => r.number), ...atSefaz.map((n) => n.number));
  let gaps = 0;
  for (let n = 1; n <= last; n++) if (!byNumber.has(n) && !voided(n)) gaps++;
  const authorisedInApp = rows.filter((r) => r.status === 'authorised');
  const sales = await salesCount();
  const notesPerSale = new Map<number, number>();
  for (const r of rows) if (r.sale_id) notesPerSale.set(r.sale_id, (notesPerSale.get(r.sale_id) ?? 0) + 1);
  const wrongProtocol = authorisedInApp.filter((r) => sefaz.notes.get(r.access_key)?.protocol !== r.protocol);
  const unknownAtSefaz = atSefaz.filter((n) => !authorisedInApp.some((r) => r.access_key === n.key));
  const notAuthorised = rows.filter((r) => r.status !== 'authorised');
  return {
    sales,
    notes: rows.length,
    salesWithoutOneNote: sales - [...notesPerSale.values()].filter((c) => c === 1).length,
    numbersReused: reused,
    gapsNotVoided: gaps,
    notAuthorised: notAuthorised.length,
    notAuthorisedStatuses: [...new Set(notAuthorised.map((r) => r.status))].join(','),
    appAuthorisedWithoutSefazProtocol: wrongProtocol.length,
    atSefazNotAuthorisedInApp: unknownAtSefaz.length,
  };
}

console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
console.log(
  '| phase | sales | failed sales | outages | chaos (timeouts / 5xx / lost answers) | settled after | numbers reused | gaps not voided | notes not authorised once |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const notOnce = (p: Awaited<ReturnType<typeof invariants>>) =>
  p.salesWithoutOneNote + p.notAuthorised + p.appAuthorisedWithoutSefazProtocol + p.atSefazNotAuthorisedInApp;
console.log(
  `| 1: two tills, chaos | ${phase1.sales} of ${SALES} | ${saleErrors} | ${outages} × ${OUTAGE_S} s | ${sefaz.chaosCounts.timeout} / ${sefaz.chaosCounts.error5xx} / ${sefaz.chaosCounts.lostAnswer} | ${(settleMs / 1000).toFixed(0)} s after the last sale (selling took ${(sellingMs / 1000).toFixed(0)} s) | ${phase1.numbersReused} | ${phase1.gapsNotVoided} | ${notOnce(phase1)} |`,
);
console.log(
  `| 2: backlog of ${BACKLOG} contingency notes | ${BACKLOG} | - | SEFAZ away while selling | - | **${(backlogMs / 1000).toFixed(0)} s** to authorise all | ${phase2.numbersReused} | ${phase2.gapsNotVoided} | ${notOnce(phase2)} |`,
);

await jobs.stop();
await app.close();
await sefaz.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
