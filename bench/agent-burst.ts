/**
 * The print agent's share of "Enviar" -> bytes (issue 36): 20 kitchen tickets handed to the agent at
 * once (what the API emits when 20 waiters send together), until the fake network printer has all 20.
 * No API: the tickets go straight to the agent's `receive`, its results are dropped (not connected).
 * BENCH_BEFORE=<commit> runs that commit's agent too, bursts interleaved with this code's (same load).
 *
 *   npx tsx bench/agent-burst.ts            BENCH_BURSTS=10 (default)   BENCH_BEFORE=<commit>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrintJob } from '@balcao/core/printing';
import { startFakePrinter } from '../apps/api/test/fakes/escposPrinter.ts';
import { PrintAgent } from '../apps/print-agent/src/agent.ts';
import { exportCommit, machine } from './lib.ts';

const TICKETS = 20;
const BURSTS = Number(process.env.BENCH_BURSTS ?? 10);
type AgentClass = typeof PrintAgent;

let nextId = 1;
const ticket = (): PrintJob =>
  ({
    id: nextId++,
    kind: 'ticket',
    status: 'sent',
    payload: {
      title: `Cozinha - Comanda ${nextId}`,
      lines: ['', 'COZINHA', `Comanda ${nextId} - Mesa B1`, '-'.repeat(48), '  1 x Feijoada', '-'.repeat(48)],
    },
    profile: { id: 1, name: 'Cozinha', paperWidth: 80, columns: 48, codePage: 'PC860', copies: 1, cut: true },
    sectorId: 1,
    reprintOf: null,
    attempts: 1,
    error: null,
    stationName: 'Cozinha PC',
    createdBy: { id: 1, name: 'Garçom' },
    createdAt: new Date().toISOString(),
    sentAt: new Date().toISOString(),
    printedAt: null,
    readyAt: null,
  }) as PrintJob;

async function burst(Agent: AgentClass): Promise<number> {
  const printer = await startFakePrinter();
  const dir = mkdtempSync(join(tmpdir(), 'bench-burst-'));
  const agent = new Agent({
    config: {
      server: 'http://127.0.0.1:9',
      agentId: 1,
      name: 'Cozinha PC',
      token: 'x',
      socketKey: 'x',
      printers: { '*': `tcp://127.0.0.1:${printer.port}` },
    },
    dir,
    statusEveryMs: 0,
    log: () => {},
  });
  // Not connected: a socket that says so (results wait for a connection that never comes).
  (agent as unknown as { socket: unknown }).socket = { connected: false, emit: () => {}, close: () => {} };
  const started = performance.now();
  for (let i = 0; i < TICKETS; i++) agent.receive(ticket());
  await printer.waitForJobs(TICKETS, 30_000);
  const ms = performance.now() - started;
  agent.stop();
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

const variants: { label: string; Agent: AgentClass; times: number[] }[] = [];
if (process.env.BENCH_BEFORE) {
  const root = exportCommit(process.env.BENCH_BEFORE);
  const { PrintAgent: Before } = (await import(join(root, 'apps/print-agent/src/agent.ts'))) as {
    PrintAgent: AgentClass;
  };
  variants.push({ label: `before (${process.env.BENCH_BEFORE.slice(0, 7)})`, Agent: Before, times: [] });
}
variants.push({ label: 'this code', Agent: PrintAgent, times: [] });
for (const v of variants) await burst(v.Agent); // warm-up
for (let b = 0; b < BURSTS; b++) for (const v of variants) v.times.push(await burst(v.Agent));
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
console.log(`| agent | bursts of ${TICKETS} | median ms | worst ms | per ticket ms |`);
console.log('|---|---|---|---|---|');
const medians: number[] = [];
for (const v of variants) {
  const sorted = [...v.times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  medians.push(median);
  console.log(
    `| ${v.label} | ${sorted.length} | ${median.toFixed(0)} | ${sorted[sorted.length - 1].toFixed(0)} | ${(median / TICKETS).toFixed(1)} |`,
  );
}
if (medians.length === 2) console.log(`median this/before ${(medians[1] / medians[0]).toFixed(2)}`);
