/**
 * Kitchen printing benchmark (issue 36): from the waiter's "Enviar" (POST /v1/comanda/:id/send) to
 * the ticket's bytes on the printer, with 20 waiters sending at once. A production start with the demo
 * shop; the print agent (apps/print-agent, in this process) paired with a kitchen profile; the printer
 * is the fake network printer of the agent's tests (raw TCP like port 9100, answers DLE EOT). Each
 * round, every waiter adds a line with a note of its own to its tab (not timed), then all 20 tap
 * "Enviar" in the same millisecond; a ticket's time is from its send's request to the moment the
 * printer has the whole ticket (the agent closed the job's connection). Target: p95 < 500 ms.
 *
 *   npx tsx bench/kitchen-print.ts                  # PGlite
 *   BENCH_PG_URL=postgres://... npx tsx bench/kitchen-print.ts
 *   BENCH_ROUNDS=20 (default 15)
 *   BENCH_BEFORE=<commit>   also the code of <commit> (API and agent) on a server of its own, its rounds
 *                           interleaved with this code's: before/after under the same machine load
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEscpos, startFakePrinter, textOf } from '../apps/api/test/fakes/escposPrinter.ts';
import { PrintAgent } from '../apps/print-agent/src/agent.ts';
import {
  cpuMsOf,
  ensureWebBuild,
  exportCommit,
  type Figures,
  machine,
  type Server,
  startServer,
  table,
} from './lib.ts';

const WAITERS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/** Between rounds: the waiters walk back to their tables. */
const PAUSE_MS = 500;
const SLUGS = ['administrador', 'gerente', 'vendedor', 'caixa', 'garcom', 'atendente'];

async function api<T>(
  server: Server,
  path: string,
  token: string,
  body?: unknown,
  method?: string,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function login(server: Server, slug: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${slug}@demo.com.br`, password: 'demo1234' }),
  });
  if (!res.ok) throw new Error(`login ${slug}: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[i] * 10) / 10;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type AgentClass = typeof PrintAgent;

/** One code's set-up (shop, agent, printer, 20 tabs): its rounds, run by the caller, and its figures. */
async function prepare(server: Server, engine: string, Agent: AgentClass) {
  const sessions = await Promise.all(SLUGS.map((slug) => login(server, slug)));
  const admin = sessions[0];
  const stamp = randomUUID().slice(0, 6);

  // A kitchen sector on a thermal profile of its own, a dish routed to it.
  const category = await api<{ id: number }>(server, '/product-category', admin, {
    name: `Cozinha ${stamp}`,
  });
  const dish = await api<{ id: number }>(server, '/product', admin, {
    name: `Prato ${stamp}`,
    salePriceCents: 2500,
    categoryId: category.id,
  });
  const before = await api<{
    profiles: unknown[];
    sectors: unknown[];
    receipt: unknown;
    updatedAt?: string;
  }>(server, '/printing/settings', admin);
  const saved = await api<{ profiles: { key: string; id: number }[] }>(
    server,
    '/printing/settings',
    admin,
    {
      ...before,
      profiles: [
        ...before.profiles,
        {
          key: 'bench',
          name: 'Cozinha térmica',
          paperWidth: 80,
          columns: 48,
          codePage: 'PC860',
          copies: 1,
          cut: true,
        },
      ],
      sectors: [
        ...before.sectors,
        { key: 'bench', name: 'Cozinha', profileKey: 'bench', categoryIds: [category.id] },
      ],
    },
    'PUT',
  );
  const profileId = saved.profiles.find((p) => p.key === 'bench')?.id as number;
  const created = await api<{ code: string }>(server, '/printing/agent', admin, {
    name: 'Cozinha PC',
    profileIds: [profileId],
  });
  const paired = await api<{ agentId: number; name: string; token: string; socketKey: string }>(
    server,
    '/printing/agent/pair',
    admin,
    { code: created.code },
  );

  const printer = await startFakePrinter();
  const agent = new Agent({
    config: {
      server: server.url,
      agentId: paired.agentId,
      name: paired.name,
      token: paired.token,
      socketKey: paired.socketKey,
      printers: { '*': `tcp://127.0.0.1:${printer.port}` },
    },
    dir: mkdtempSync(join(tmpdir(), 'bench-agent-')),
    statusEveryMs: 0,
    log: () => {},
  });
  agent.start();

  // When each ticket arrived, by the note it carries.
  const arrived = new Map<string, number>();
  let seen = 0;
  const watch = async () => {
    for (;;) {
      await printer.waitForJobs(seen + 1, 3_600_000);
      const at = performance.now();
      for (; seen < printer.jobs.length; seen++) {
        const note = /bench-\d+-\d+/.exec(textOf(decodeEscpos(printer.jobs[seen])).join('\n'))?.[0];
        if (note) arrived.set(note, at);
      }
    }
  };
  void watch().catch(() => undefined);

  const tabs: number[] = [];
  for (let w = 0; w < WAITERS; w++)
    tabs.push(
      (await api<{ id: number }>(server, '/comanda', admin, { people: 2, tableLabel: `B${w + 1}` })).id,
    );

  const latencies: number[] = [];
  /** The send's own answer time (the API's share). */
  const answers: number[] = [];
  let errors = 0;
  const round = async (r: number, counted: boolean) => {
    await Promise.all(
      tabs.map((tab, w) =>
        api(server, `/comanda/${tab}/line`, sessions[w % sessions.length], {
          productId: dish.id,
          quantity: 1,
          notes: `bench-${r}-${w}`,
        }),
      ),
    );
    const sentAt = new Map<string, number>();
    await Promise.all(
      tabs.map(async (tab, w) => {
        const note = `bench-${r}-${w}`;
        const start = performance.now();
        sentAt.set(note, start);
        await api(server, `/comanda/${tab}/send`, sessions[w % sessions.length], {}, 'POST', {
          'idempotency-key': randomUUID(),
        }).catch(() => errors++);
        if (counted) answers.push(performance.now() - start);
      }),
    );
    const deadline = performance.now() + 10_000;
    while ([...sentAt.keys()].some((n) => !arrived.has(n)) && performance.now() < deadline) await sleep(5);
    if (!counted) return;
    for (const [note, start] of sentAt) {
      const end = arrived.get(note);
      if (end === undefined) errors++;
      else latencies.push(end - start);
    }
  };
  await round(0, false); // warm-up: connections, prepared statements
  const cpuBefore = server.pid ? cpuMsOf(server.pid) : 0;
  let seconds = 0;
  return {
    /** Round r (timed), then the pause. */
    async run(r: number) {
      const started = performance.now();
      await round(r, true);
      seconds += (performance.now() - started) / 1000;
      await sleep(PAUSE_MS);
    },
    async finish(label: string): Promise<Figures> {
      const sends = ROUNDS * WAITERS;
      if (server.pid) {
        // The API's CPU per send moves much less than wall time when other work shares the machine:
        // 20 sends at once finish in about 20 x the API's CPU per send on a quiet core.
        const apiCpu = (cpuMsOf(server.pid) - cpuBefore) / sends;
        console.log(`${label}: API CPU per send (add line + send) ${apiCpu.toFixed(1)} ms`);
      }
      agent.stop();
      await printer.close();
      latencies.sort((a, b) => a - b);
      answers.sort((a, b) => a - b);
      console.log(
        `${label}: POST /comanda/:id/send answered: p50 ${percentile(answers, 50)} ms, p95 ${percentile(answers, 95)} ms`,
      );
      return {
        name: `${label}${engine}: ${WAITERS} waiters tap Enviar at once, ${ROUNDS} rounds, "Enviar" to bytes on the printer`,
        requests: latencies.length,
        rps: Math.round(latencies.length / seconds),
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        errors,
      };
    },
  };
}

ensureWebBuild();
const engine = process.env.BENCH_PG_URL ? 'PostgreSQL' : 'PGlite';
const before = process.env.BENCH_BEFORE;
const servers: Server[] = [];
const rows: Figures[] = [];
try {
  const variants: { label: string; bench: Awaited<ReturnType<typeof prepare>> }[] = [];
  if (before) {
    // The code before, API and agent, from an export of the commit; its own server (and database).
    const root = exportCommit(before);
    const beforeServer = await startServer({
      root,
      ...(process.env.BENCH_PG_URL ? { databaseUrl: process.env.BENCH_BEFORE_PG_URL } : {}),
    });
    servers.push(beforeServer);
    const { PrintAgent: BeforeAgent } = (await import(join(root, 'apps/print-agent/src/agent.ts'))) as {
      PrintAgent: AgentClass;
    };
    variants.push({
      label: `before (${before.slice(0, 7)}) `,
      bench: await prepare(beforeServer, engine, BeforeAgent),
    });
  }
  const server = await startServer(process.env.BENCH_PG_URL ? { databaseUrl: process.env.BENCH_PG_URL } : {});
  servers.push(server);
  variants.push({ label: before ? 'this code ' : '', bench: await prepare(server, engine, PrintAgent) });
  // Interleaved rounds: each code's round r runs right after the other's, under the same load.
  for (let r = 1; r <= ROUNDS; r++) for (const v of variants) await v.bench.run(r);
  for (const v of variants) rows.push(await v.bench.finish(v.label));
} finally {
  for (const s of servers) await s.stop();
}
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
console.log(table(rows));
if (rows.length === 2)
  console.log(
    `p50 this/before ${(rows[1].p50 / rows[0].p50).toFixed(2)}, p95 this/before ${(rows[1].p95 / rows[0].p95).toFixed(2)}`,
  );
const mine = rows[rows.length - 1];
process.exit(mine.p95 >= 500 || mine.errors > 0 ? 1 : 0);
