import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentScaleReading, SCALE_READING_EVENT } from '@balcao/core/printAgent';
import type { ScaleProtocol } from '@balcao/core/scale/serialScale';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { PrintAgent } from '../../../../print-agent/src/agent.ts';
import type { TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, useTestApp } from '../../../test/kit.ts';

/**
 * Issue 36: a serial scale on the print agent's PC. The scale is the Toledo/Filizola emulator on a
 * pseudo-terminal (test/fakes/ptyScale.py: ENQ in, STX + 5 characters + ETX out, split in two writes
 * like a UART); the agent opens it with the `serialport` package as it would /dev/ttyUSB0, and the
 * shop's screens hear each reading through the API.
 */

const API_KEY = 'chave-de-teste';
let t: TestApp;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t } = app));

const serverUrl = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
});

/** The emulator on a pseudo-terminal: its device path and a way to change the plate. */
async function startScale(protocol: ScaleProtocol) {
  const script = resolve(import.meta.dirname, '../../../test/fakes/ptyScale.py');
  const child: ChildProcess = spawn('python3', [script, protocol], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill());
  const path = await new Promise<string>((done) =>
    child.stdout?.once('data', (chunk: Buffer) => done(chunk.toString().trim())),
  );
  return { path, put: (plate: string) => child.stdin?.write(`${plate}\n`) };
}

/** A shop with an agent paired, the agent reading the scale at `path`, and a PDV's socket listening. */
async function shopWithAgentScale(path: string, protocol: ScaleProtocol) {
  const shop = await asUser(t, [1, 4]);
  const saved = expectStatus(
    await shop.api.put('/printing/settings', {
      profiles: [
        { key: 'caixa', name: 'Caixa', paperWidth: 80, columns: 48, codePage: 'PC860', copies: 1, cut: true },
      ],
      sectors: [],
      receipt: { autoPrint: false, profileKey: null },
    }),
    200,
    'settings',
  );
  const created = expectStatus(
    await shop.api.post('/printing/agent', { name: 'Caixa 1', profileIds: [saved.profiles[0].id] }),
    201,
    'agent',
  );
  const paired = expectStatus(
    await t.app.inject({ method: 'POST', url: '/v1/printing/agent/pair', payload: { code: created.code } }),
    200,
    'pair',
  );
  const heard: AgentScaleReading[] = [];
  const pdv: Socket = io(serverUrl(), {
    path: '/socket.io',
    query: { key: API_KEY },
    auth: { token: shop.users[1].token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  cleanups.push(() => pdv.close());
  pdv.on(SCALE_READING_EVENT, (reading: AgentScaleReading) => heard.push(reading));
  await new Promise((done) => pdv.once('connect', () => done(null)));
  expect((await pdv.timeout(5000).emitWithAck('joinChannel', `notifications_${shop.client.id}`)).ok).toBe(
    true,
  );
  const agent = new PrintAgent({
    config: {
      server: serverUrl(),
      agentId: paired.agentId,
      name: paired.name,
      token: paired.token,
      socketKey: paired.socketKey,
      printers: { '*': 'tcp://127.0.0.1:9' },
      scale: { path, protocol },
    },
    dir: mkdtempSync(join(tmpdir(), 'agent-scale-')),
    statusEveryMs: 0,
    scaleEveryMs: 50,
    log: () => {},
  });
  cleanups.push(() => agent.stop());
  agent.start();
  /** The first reading heard after now that matches. */
  const next = async (match: (r: AgentScaleReading) => boolean, ms = 8000) => {
    const from = heard.length;
    const end = Date.now() + ms;
    for (;;) {
      const found = heard.slice(from).find(match);
      if (found) return found;
      if (Date.now() > end) throw new Error(`no such reading; heard ${JSON.stringify(heard.slice(-3))}`);
      await wait(20);
    }
  };
  return { shop, paired, next, heard, agent };
}

describe('a serial scale read by the print agent', () => {
  it('Toledo: the stable weight, unstable, negative and overload reach the PDV live, with the agent named', async () => {
    const scale = await startScale('toledo');
    scale.put('347');
    const { next, paired } = await shopWithAgentScale(scale.path, 'toledo');

    const stable = await next((r) => r.reading?.status === 'stable');
    expect(stable).toEqual({
      reading: { status: 'stable', grams: 347 },
      error: '',
      agentId: paired.agentId,
      agentName: 'Caixa 1',
    });
    scale.put('unstable');
    expect((await next((r) => r.reading?.status !== 'stable')).reading).toEqual({ status: 'unstable' });
    scale.put('negative');
    expect((await next((r) => r.reading?.status === 'negative')).reading).toEqual({ status: 'negative' });
    scale.put('overload');
    expect((await next((r) => r.reading?.status === 'overload')).reading).toEqual({ status: 'overload' });
    scale.put('1250');
    expect((await next((r) => r.reading?.status === 'stable')).reading).toEqual({
      status: 'stable',
      grams: 1250,
    });

    // A scale that stops answering: the PDV hears why, in Portuguese, and no weight.
    scale.put('silent');
    const silent = await next((r) => r.reading === null);
    expect(silent.error).toBe('A balança não respondeu: confira o cabo, a porta e a velocidade (9600)');
  });

  it('Filizola: the state letter in front of the frame', async () => {
    const scale = await startScale('filizola');
    scale.put('unstable');
    const { next } = await shopWithAgentScale(scale.path, 'filizola');
    expect((await next((r) => r.reading !== null)).reading).toEqual({ status: 'unstable' });
    scale.put('2005');
    expect((await next((r) => r.reading?.status === 'stable')).reading).toEqual({
      status: 'stable',
      grams: 2005,
    });
  });

  it('a port that does not exist: the PDV hears the reason, in Portuguese', async () => {
    const { next, agent } = await shopWithAgentScale('/dev/nao-existe-balanca', 'toledo');
    const missing = await next((r) => r.reading === null);
    expect(missing.error).toMatch(/^Não foi possível abrir a porta da balança \/dev\/nao-existe-balanca: /);
    agent.stop();
  });

  it("only the shop's own screens hear its scale", async () => {
    const scale = await startScale('toledo');
    scale.put('500');
    const mine = await shopWithAgentScale(scale.path, 'toledo');
    const other = await asUser(t, [1]);
    const eavesdrop: unknown[] = [];
    const socket = io(serverUrl(), {
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token: other.users[0].token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    cleanups.push(() => socket.close());
    socket.on(SCALE_READING_EVENT, (r: unknown) => eavesdrop.push(r));
    await new Promise((done) => socket.once('connect', () => done(null)));
    await socket.timeout(5000).emitWithAck('joinChannel', `notifications_${other.client.id}`);
    await mine.next((r) => r.reading?.status === 'stable');
    await mine.next((r) => r.reading?.status === 'stable'); // a heartbeat later
    expect(eavesdrop).toEqual([]);
  });
});
