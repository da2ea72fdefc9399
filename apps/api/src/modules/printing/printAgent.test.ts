import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PRINT_JOB_EVENT, PRINT_STATION_EVENT, type PrintJob } from '@balcao/core/printing';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrintAgent } from '../../../../print-agent/src/agent.ts';
import { outputFor } from '../../../../print-agent/src/devices/index.ts';
import {
  decodeEscpos,
  type FakePrinter,
  STATUS_ANSWERS,
  startFakePrinter,
  textOf,
} from '../../../test/fakes/escposPrinter.ts';
import type { TestApp } from '../../../test/helper.ts';
import {
  asUser,
  expectStatus,
  makeProduct,
  makeSimpleSale,
  openRegister,
  useTestApp,
} from '../../../test/kit.ts';
import { cashDrawerOpenings } from '../cash-register/schema.ts';

const API_KEY = 'chave-de-teste';

let t: TestApp;
useTestApp({ config: { apiKey: API_KEY }, sockets: true }, (app) => ({ t } = app));

let printer: FakePrinter;
beforeAll(async () => {
  printer = await startFakePrinter();
});
afterAll(() => printer.close());

const serverUrl = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));
async function until<T>(check: () => Promise<T | undefined> | T | undefined, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await wait(30);
  }
}

const PROFILES = {
  profiles: [
    { key: 'caixa', name: 'Caixa', paperWidth: 80, columns: 48, codePage: 'PC860', copies: 1, cut: true },
    {
      key: 'cozinha',
      name: 'Cozinha',
      paperWidth: 58,
      columns: 32,
      codePage: 'WPC1252',
      copies: 1,
      cut: true,
    },
  ],
  sectors: [{ key: 'cozinha', name: 'Cozinha', profileKey: 'cozinha', categoryIds: [] }],
  receipt: { autoPrint: false, profileKey: null },
};

/** A shop with two profiles and an agent paired for both: the shop, the profile ids, the pair answer. */
async function pairedShop() {
  const shop = await asUser(t, [1, 5]);
  const saved = expectStatus(await shop.api.put('/printing/settings', PROFILES), 200, 'settings');
  const ids = Object.fromEntries(saved.profiles.map((p: { key: string; id: number }) => [p.key, p.id]));
  const created = expectStatus(
    await shop.api.post('/printing/agent', { name: 'Balcão PC', profileIds: [ids.caixa, ids.cozinha] }),
    201,
    'create agent',
  );
  const paired = expectStatus(
    await t.app.inject({ method: 'POST', url: '/v1/printing/agent/pair', payload: { code: created.code } }),
    200,
    'pair',
  );
  return { shop, ids: ids as Record<string, number>, created, paired };
}

const agents: PrintAgent[] = [];
function startAgent(
  paired: { agentId: number; name: string; token: string; socketKey: string },
  dir?: string,
  options: { output?: string; statusEveryMs?: number } = {},
) {
  const agent = new PrintAgent({
    config: {
      server: serverUrl(),
      agentId: paired.agentId,
      name: paired.name,
      token: paired.token,
      socketKey: paired.socketKey,
      printers: { '*': options.output ?? `tcp://127.0.0.1:${printer.port}` },
    },
    dir: dir ?? mkdtempSync(join(tmpdir(), 'agent-')),
    retryMs: 100,
    statusEveryMs: options.statusEveryMs ?? 0,
    log: () => {},
  });
  agents.push(agent);
  agent.start();
  return agent;
}
afterAll(() => {
  for (const a of agents) a.stop();
});

async function job(api: Awaited<ReturnType<typeof asUser>>['api'], id: number): Promise<PrintJob> {
  return expectStatus(await api.get(`/printing/job/${id}`), 200, 'job');
}

describe('pairing an agent', () => {
  it('answers a code once; the code again, or a wrong one, is refused in Portuguese', async () => {
    const { created, paired } = await pairedShop();
    expect(created.code).toMatch(/^[23456789A-HJ-NP-Z]{8}$/);
    expect(created.agent.status).toBe('pairing');
    expect(paired.token.length).toBeGreaterThan(20);
    expect(paired.socketKey).toBe(API_KEY);
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/printing/agent/pair',
      payload: { code: created.code },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(
      'Código de pareamento inválido ou vencido: gere outro em Configurações > Impressoras',
    );
  });

  it('only who edits the settings creates or revokes one; the garçom gets 403', async () => {
    const { shop, ids } = await pairedShop();
    const waiter = shop.apis[1];
    expect((await waiter.post('/printing/agent', { name: 'X', profileIds: [ids.caixa] })).statusCode).toBe(
      403,
    );
    const empty = await shop.api.post('/printing/agent', { name: 'X', profileIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Escolha ao menos um perfil de impressora');
  });

  it('a revoked agent is disconnected and its token refused on the socket', async () => {
    const { shop, paired } = await pairedShop();
    // The agent's own socket: auth.agentToken, no session.
    const connectAs = (token: string) =>
      new Promise<string>((done) => {
        const s = io(serverUrl(), {
          path: '/socket.io',
          query: { key: API_KEY },
          auth: { agentToken: token },
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        s.on('connect', () => {
          done('connected');
          s.disconnect();
        });
        s.on('connect_error', (e) => done(`refused: ${e.message}`));
      });
    expect(await connectAs(paired.token)).toBe('connected');
    expect(await connectAs('inventado')).toBe('refused: Agente de impressão inválido ou revogado');
    const listed = expectStatus(await shop.api.get('/printing/agents'), 200, 'agents');
    expect(listed[0]).toMatchObject({ name: 'Balcão PC', status: 'paired' });
    expectStatus(await shop.api.delete(`/printing/agent/${paired.agentId}`), 200, 'revoke');
    expect(await connectAs(paired.token)).toBe('refused: Agente de impressão inválido ou revogado');
    expect(expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')).toEqual([]);
  });
});

describe('the agent prints ESC/POS on a network printer', () => {
  it('a receipt: PC860 accents, bold first line, native QR, cut; the job is confirmed printed', async () => {
    const { shop, ids, paired } = await pairedShop();
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const before = printer.jobs.length;
    const queued = expectStatus(
      await shop.api.post('/printing/job', {
        profileId: ids.caixa,
        kind: 'receipt',
        payload: {
          title: 'Venda 1',
          lines: ['LOJA DA ESQUINA', 'Pão de queijo ação  R$ 5,00', 'Total R$ 5,00'],
          qr: '00020126580014br.gov.bcb.pix0136chave-pix',
        },
        idempotencyKey: 'agent-receipt-1',
      }),
      201,
      'enqueue',
    );
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const decoded = decodeEscpos(bytes);
    expect(decoded.initialized).toBe(true);
    expect(decoded.codePages).toEqual(['PC860']);
    expect(textOf(decoded)).toEqual(['LOJA DA ESQUINA', 'Pão de queijo ação  R$ 5,00', 'Total R$ 5,00']);
    expect(decoded.lines.find((l) => l.text === 'LOJA DA ESQUINA')?.bold).toBe(true);
    expect(decoded.qrCodes).toEqual(['00020126580014br.gov.bcb.pix0136chave-pix']);
    expect(decoded.cuts).toBe(1);
    expect(decoded.pulses).toBe(0);
    await until(async () => (await job(shop.api, queued.id)).status === 'printed');
    expect((await job(shop.api, queued.id)).stationName).toBe('Balcão PC');
  });

  it("a receipt prints the shop's logo as a dithered raster image sized to 80 and 58 mm paper", async () => {
    const { shop, ids, paired } = await pairedShop();
    // An 800x400 logo of 50% gray: stored as 512x256; a threshold would print it all white or all black.
    const gray = await sharp({
      create: { width: 800, height: 400, channels: 3, background: { r: 128, g: 128, b: 128 } },
    })
      .png()
      .toBuffer();
    const boundary = '----logo';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      gray,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/v1/settings/company/logo',
      headers: {
        ...shop.auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    const { logoUrl } = expectStatus(uploaded, 200, 'logo');
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const before = printer.jobs.length;
    const receipt = (profileId: number, key: string, kind = 'receipt') =>
      shop.api.post('/printing/job', {
        profileId,
        kind,
        // A logo named by the caller is not the caller's to choose: the shop's own replaces it.
        payload: {
          title: 'Venda 2',
          lines: ['LOJA DA ESQUINA', 'Total R$ 5,00'],
          logo: logoUrl.replace(/[a-f0-9]{32}/, 'a'.repeat(32)),
        },
        idempotencyKey: key,
      });
    const wide = expectStatus(await receipt(ids.caixa, 'agent-logo-80'), 201, '80 mm');
    expect(wide.payload.logo).toBe(logoUrl);
    const [bytes80] = (await printer.waitForJobs(before + 1)).slice(before);
    const narrow = expectStatus(await receipt(ids.cozinha, 'agent-logo-58'), 201, '58 mm');
    const [bytes58] = (await printer.waitForJobs(before + 2)).slice(before + 1);
    const ticket = expectStatus(await receipt(ids.cozinha, 'agent-logo-ticket', 'ticket'), 201, 'ticket');
    expect(ticket.payload.logo).toBeUndefined();
    const [ticketBytes] = (await printer.waitForJobs(before + 3)).slice(before + 2);

    const decoded80 = decodeEscpos(bytes80);
    expect(decoded80.rasters).toHaveLength(1);
    expect(decoded80.rasters[0]).toMatchObject({ width: 384, height: 192 });
    expect(decoded80.rasters[0].black).toBeGreaterThan(0.3);
    expect(decoded80.rasters[0].black).toBeLessThan(0.7);
    expect(textOf(decoded80)).toEqual(['LOJA DA ESQUINA', 'Total R$ 5,00']);
    const decoded58 = decodeEscpos(bytes58);
    expect(decoded58.rasters).toHaveLength(1);
    expect(decoded58.rasters[0]).toMatchObject({ width: 288, height: 144 });
    expect(decodeEscpos(ticketBytes).rasters).toEqual([]);
    await until(async () => (await job(shop.api, narrow.id)).status === 'printed');
  });

  it('a kitchen ticket: bold, double height, in the profile code page (WPC1252), status and bytes on one connection', async () => {
    const { shop, ids, paired } = await pairedShop();
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const before = printer.jobs.length;
    const connections = printer.connections;
    const statusRequests = printer.statusRequests;
    expectStatus(
      await shop.api.post('/printing/job', {
        profileId: ids.cozinha,
        kind: 'ticket',
        payload: { title: 'Mesa 4', lines: ['COZINHA', '2x Feijoada à moda'] },
        idempotencyKey: 'agent-ticket-1',
      }),
      201,
      'enqueue',
    );
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const decoded = decodeEscpos(bytes);
    expect(decoded.codePages).toEqual(['WPC1252']);
    expect(textOf(decoded)).toEqual(['COZINHA', '2x Feijoada à moda']);
    expect(decoded.lines.filter((l) => l.text).every((l) => l.bold && l.doubleHeight)).toBe(true);
    expect(decoded.cuts).toBe(1);
    // The status (DLE EOT 1, 2, 4) was asked, and the ticket went on the same connection: one connection
    // per ticket, not a status connection and then a job connection (bench/kitchen-print.ts).
    expect(printer.statusRequests - statusRequests).toBe(3);
    expect(printer.connections - connections).toBe(1);
  });

  it('paper out keeps the job queued, says so on the agent, and prints it once when paper is back', async () => {
    const { shop, ids, paired } = await pairedShop();
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    // The bell: a user's socket on the shop's channel.
    const bell = io(serverUrl(), {
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token: shop.users[0].token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const rung: string[] = [];
    bell.on('newChannelMessage', (m: { message: string }) => rung.push(JSON.parse(m.message).message));
    const joined = await bell.timeout(5000).emitWithAck('joinChannel', `notifications_${shop.client.id}`);
    expect(joined.ok).toBe(true);
    const before = printer.jobs.length;
    printer.condition = 'paper_out';
    try {
      const queued = expectStatus(
        await shop.api.post('/printing/job', {
          profileId: ids.caixa,
          kind: 'document',
          payload: { title: 'Doc', lines: ['Sem papel?'] },
          idempotencyKey: 'agent-paper-1',
        }),
        201,
        'enqueue',
      );
      const held = await until(async () => {
        const j = await job(shop.api, queued.id);
        return j.error ? j : undefined;
      });
      expect(held.status).toBe('sent');
      expect(held.error).toBe('Aguardando a impressora: Sem papel');
      const [agent] = await until(async () => {
        const list = expectStatus(await shop.api.get('/printing/agents'), 200, 'agents');
        return list[0].printerState === 'paper_out' ? list : undefined;
      });
      expect(agent).toMatchObject({ printerState: 'paper_out', heldJobs: 1 });
      await wait(300);
      expect(printer.jobs.length).toBe(before);
      printer.condition = 'ok';
      await until(async () => (await job(shop.api, queued.id)).status === 'printed');
      expect(printer.jobs.length).toBe(before + 1);
      // The agent reports its printer's state on its own after the job's ack: wait for it, do not race it.
      const after = await until(async () => {
        const agent = expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0];
        return agent.printerState === 'ok' && agent.heldJobs === 0 ? agent : undefined;
      });
      expect(after).toMatchObject({ printerState: 'ok', heldJobs: 0 });
      await until(() => rung.length >= 2);
      // Told once when it stopped (not at every retry) and once when it printed again.
      expect(rung).toEqual([
        'Impressora da estação Balcão PC: Sem papel. 1 impressão aguardando.',
        'Impressora da estação Balcão PC voltou a imprimir',
      ]);
    } finally {
      printer.condition = 'ok';
      bell.disconnect();
    }
  });

  it('a drawer kick goes to the agent as ESC p alone, never to a browser station', async () => {
    const { shop, ids, paired } = await pairedShop();
    // A browser station of the same profile, connected first (the oldest would be picked first).
    const browserStation = io(serverUrl(), {
      path: '/socket.io',
      query: { key: API_KEY },
      auth: { token: shop.users[0].token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    const browserGot: PrintJob[] = [];
    browserStation.on(PRINT_JOB_EVENT, (j: PrintJob) => browserGot.push(j));
    const joined = await browserStation
      .timeout(5000)
      .emitWithAck(PRINT_STATION_EVENT, { name: 'Navegador', profileIds: [ids.caixa] });
    expect(joined.ok).toBe(true);
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const before = printer.jobs.length;
    const queued = expectStatus(
      await shop.api.post('/printing/job', {
        profileId: ids.caixa,
        kind: 'drawer',
        payload: { title: 'Gaveta', lines: ['Abrir gaveta'] },
        idempotencyKey: 'agent-drawer-1',
      }),
      201,
      'enqueue',
    );
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const decoded = decodeEscpos(bytes);
    expect(decoded.pulses).toBe(1);
    expect(textOf(decoded)).toEqual([]);
    expect(decoded.cuts).toBe(0);
    await until(async () => (await job(shop.api, queued.id)).status === 'printed');
    expect(browserGot).toEqual([]);
    browserStation.disconnect();
  });
});

describe('labels through the agent: a raw ZPL/EPL job on the label printer', () => {
  it('sends the commands as they are, once per key; without an agent for the profile, 409 in Portuguese', async () => {
    const { shop, ids, paired } = await pairedShop();
    const shirt = await makeProduct(t, shop.auth, {
      name: 'Camiseta Básica',
      salePriceCents: 4990,
      barcode: '7891234567895',
    });
    const other = await asUser(t, [1]);
    const otherSettings = expectStatus(await other.api.put('/printing/settings', PROFILES), 200, 'settings');
    const noAgent = await other.api.post('/label/print', {
      items: `${shirt.id}x3`,
      profileId: otherSettings.profiles[0].id,
      idempotencyKey: 'etiquetas-sem-agente',
    });
    expect(noAgent.statusCode).toBe(409);
    expect(noAgent.json().message).toBe(
      'Nenhum agente de impressão imprime neste perfil: pareie um agente para ele em Configurações > Impressoras',
    );

    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const before = printer.jobs.length;
    const send = {
      items: `${shirt.id}x3`,
      language: 'zpl',
      profileId: ids.cozinha,
      idempotencyKey: 'etiquetas-1',
    };
    const queued = expectStatus(await shop.api.post('/label/print', send), 201, 'print labels');
    expect(queued.kind).toBe('label');
    expect(queued.payload.lines).toEqual(['3 etiquetas (ZPL)', '3 x Camiseta Básica']);
    const [bytes] = (await printer.waitForJobs(before + 1)).slice(before);
    const zpl = Buffer.from(bytes).toString('utf8');
    const expected = await shop.api.get(`/label/commands?items=${shirt.id}x3&language=zpl`);
    expect(zpl).toBe(expected.body);
    expect(zpl).toContain('^FDCamiseta Básica^FS');
    expect(zpl).toContain('^PQ3');
    // No ESC/POS: no status request, no init, no cut around the label printer's commands.
    expect(bytes[0]).toBe('^'.charCodeAt(0));
    await until(async () => (await job(shop.api, queued.id)).status === 'printed');
    // The same click again (a retried request) is the same job: printed once.
    const again = expectStatus(await shop.api.post('/label/print', send), 201, 'again');
    expect(again.id).toBe(queued.id);
    await wait(300);
    expect(printer.jobs.length).toBe(before + 1);
  });
});

describe('exactly once across a kill of the agent process', () => {
  const root = resolve(import.meta.dirname, '../../../../..');
  const bin = join(root, 'apps/print-agent/bin/balcao-print-agent.mjs');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  function run(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, BALCAO_AGENT_RETRY_MS: '100', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    return { child, exited, output: () => output };
  }

  async function pairWithCli(shop: Awaited<ReturnType<typeof asUser>>, profileIds: number[], dir: string) {
    const created = expectStatus(
      await shop.api.post('/printing/agent', { name: 'Cozinha PC', profileIds }),
      201,
      'create',
    );
    const pair = run([
      'pair',
      created.code,
      '--server',
      serverUrl(),
      '--printer',
      `tcp://127.0.0.1:${printer.port}`,
      '--dir',
      dir,
    ]);
    expect(await pair.exited, pair.output()).toBe(0);
    expect(pair.output()).toContain('Pareado como "Cozinha PC"');
  }

  for (const step of [
    'after printing, before the ack',
    'after receiving, before printing',
    'once the printer took the bytes',
  ] as const) {
    it(`killed ${step}: printed exactly once after the restart`, async () => {
      const shop = await asUser(t, [1]);
      const saved = expectStatus(await shop.api.put('/printing/settings', PROFILES), 200, 'settings');
      const profileId = saved.profiles[0].id as number;
      const dir = mkdtempSync(join(tmpdir(), 'agent-cli-'));
      try {
        await pairWithCli(shop, [profileId], dir);
        const pause: Record<string, string> = {
          'after printing, before the ack': { BALCAO_AGENT_PAUSE_BEFORE_ACK_MS: '60000' },
          'after receiving, before printing': { BALCAO_AGENT_PAUSE_BEFORE_PRINT_MS: '60000' },
          // Right after the printer closed the connection (every byte taken): where the journal
          // used to say "received" still, so the restart printed the job a second time.
          'once the printer took the bytes': { BALCAO_AGENT_PAUSE_AFTER_WRITE_MS: '60000' },
        }[step];
        const first = run(['start', '--dir', dir], pause);
        // A child process starting tsx on a busy machine: generous waits (none sleeps for them).
        await until(
          async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected,
          45_000,
        );
        const before = printer.jobs.length;
        const queued = expectStatus(
          await shop.api.post('/printing/job', {
            profileId,
            kind: 'document',
            payload: { title: 'Uma vez', lines: [`Só uma vez (${step})`] },
            idempotencyKey: `agent-kill-${step}`,
          }),
          201,
          'enqueue',
        );
        // The kill lands after the journal recorded the step: printed (the printer closed the
        // connection after taking every byte) or received; or as soon as the printer has the job.
        const entry = join(dir, 'journal', `${queued.id}.json`);
        // The printer has the bytes and the agent has taken its staged "printed" (on a loaded machine
        // the test could otherwise kill it in the instant between the two, the window the agent keeps).
        if (step === 'once the printer took the bytes')
          await until(
            () =>
              printer.jobs.length > before &&
              existsSync(entry) &&
              JSON.parse(readFileSync(entry, 'utf8')).state === 'printed',
            30_000,
          );
        else {
          const state = step === 'after printing, before the ack' ? 'printed' : 'received';
          await until(
            () => existsSync(entry) && JSON.parse(readFileSync(entry, 'utf8')).state === state,
            30_000,
          );
        }
        first.child.kill('SIGKILL');
        await first.exited;
        expect((await job(shop.api, queued.id)).status).toBe('sent');

        const second = run(['start', '--dir', dir]);
        await until(async () => (await job(shop.api, queued.id)).status === 'printed', 45_000);
        await wait(300);
        const mine = printer.jobs
          .slice(before)
          .filter((b) => textOf(decodeEscpos(b)).includes(`Só uma vez (${step})`));
        expect(mine).toHaveLength(1);
        second.child.kill('SIGTERM');
        await second.exited;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 150_000);
  }
});

describe('the cash drawer (ESC p through the agent of the receipt printer)', () => {
  it('opens once on a cash sale, a sangria and "Abrir gaveta", each logged on the register; not on a pix sale', async () => {
    const { shop, ids, paired } = await pairedShop();
    const receiptOn = { ...PROFILES, receipt: { autoPrint: false, profileKey: 'caixa' } };
    const current = expectStatus(await shop.api.get('/printing/settings'), 200, 'settings');
    expectStatus(
      await shop.api.put('/printing/settings', { ...receiptOn, updatedAt: current.updatedAt }),
      200,
      'receipt profile',
    );
    expect(ids.caixa).toBeGreaterThan(0);
    startAgent(paired);
    await until(async () => expectStatus(await shop.api.get('/printing/agents'), 200, 'agents')[0].connected);
    const register = await openRegister(t, shop.auth);
    const before = printer.jobs.length;

    await makeSimpleSale(t, shop.auth, { payments: [{ method: 'pix', amountCents: 1000 }] });
    const cash = await makeSimpleSale(t, shop.auth, { payments: [{ method: 'money', amountCents: 1000 }] });
    expectStatus(
      await shop.api.post('/cash-register/movement', {
        type: 'withdrawal',
        amountCents: 500,
        reason: 'Banco',
      }),
      201,
      'sangria',
    );
    // The sangria's kick is not waited for by its answer: the click below comes after it is logged, as a
    // person's would (under load the two could otherwise be logged in either order).
    await until(async () => {
      const rows = await t.database.db
        .select()
        .from(cashDrawerOpenings)
        .where(eq(cashDrawerOpenings.cashRegisterId, register.id));
      return rows.some((r) => r.reason === 'withdrawal');
    });
    const click = { idempotencyKey: 'abrir-gaveta-1' };
    expect(expectStatus(await shop.api.post('/cash-register/drawer', click), 201, 'abrir gaveta')).toEqual({
      opened: true,
    });
    // The same click again (a retried request) opens it no more.
    expectStatus(await shop.api.post('/cash-register/drawer', click), 201, 'again');

    const kicks = (await printer.waitForJobs(before + 3)).slice(before);
    await wait(300);
    expect(printer.jobs.length).toBe(before + 3);
    for (const bytes of kicks) expect(decodeEscpos(bytes)).toMatchObject({ pulses: 1, cuts: 0 });
    const log = await t.database.db
      .select()
      .from(cashDrawerOpenings)
      .where(eq(cashDrawerOpenings.cashRegisterId, register.id));
    expect(log.map((l) => [l.reason, l.key, l.userId]).sort()).toEqual(
      [
        ['manual', 'manual-abrir-gaveta-1', shop.users[0].user.id],
        ['sale', `sale-${cash.id}`, shop.users[0].user.id],
        ['withdrawal', expect.stringMatching(/^withdrawal-\d+$/), shop.users[0].user.id],
      ].sort(),
    );
    // The register's close report lists each opening: when, why and who.
    const closed = expectStatus(
      await shop.api.post('/cash-register/close', { counted: [{ method: 'money', amountCents: 0 }] }),
      200,
      'close',
    );
    const name = shop.users[0].user.name;
    expect(
      closed.drawerOpenings.map((d: { reason: string; user: { name: string } }) => [d.reason, d.user.name]),
    ).toEqual([
      ['sale', name],
      ['withdrawal', name],
      ['manual', name],
    ]);
    const report = expectStatus(await shop.api.get(`/cash-register/${register.id}`), 200, 'report');
    expect(report.drawerOpenings).toEqual(closed.drawerOpenings);
  });

  it('"Abrir gaveta" needs the permission, an open register and an agent, with Portuguese answers', async () => {
    const shop = await asUser(t, [1, 6, 4]);
    const click = { idempotencyKey: 'abrir-gaveta-2' };
    // Financeiro (6) sells at the counter but may not open the drawer by hand.
    expect((await shop.apis[1].post('/cash-register/drawer', click)).statusCode).toBe(403);
    const noRegister = await shop.api.post('/cash-register/drawer', click);
    expect(noRegister.statusCode).toBe(422);
    expect(noRegister.json().message).toBe('Você não tem um caixa aberto');
    await openRegister(t, shop.auth);
    const noAgent = await shop.api.post('/cash-register/drawer', click);
    expect(noAgent.statusCode).toBe(409);
    expect(noAgent.json().message).toBe(
      'Nenhum agente de impressão abre a gaveta: pareie um agente para o perfil do cupom em Configurações > Impressoras',
    );
  });
});

describe('the other outputs: a USB device file and the CUPS queue', () => {
  const bytes = Uint8Array.from([0x1b, 0x40, 0x41, 0x0a, 0x1d, 0x56, 0x01]);

  it('writes the bytes to the device file (/dev/usb/lp0 on Linux); a missing device holds the job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-file-'));
    const device = join(dir, 'lp0');
    writeFileSync(device, '');
    await outputFor(`file://${device}`).write(bytes);
    expect([...readFileSync(device)]).toEqual([...bytes]);
    await expect(outputFor(`file://${join(dir, 'nada', 'lp9')}`).write(bytes)).rejects.toMatchObject({
      state: 'offline',
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the bytes raw to `lp -d FILA -o raw`; a refusal says so in Portuguese', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-cups-'));
    const lp = join(dir, 'lp');
    writeFileSync(
      lp,
      `#!/bin/sh\necho "$@" > ${dir}/args\ncat > ${dir}/bytes\n[ "$2" = "Cozinha" ] || { echo "lp: The printer or class does not exist." >&2; exit 1; }\n`,
    );
    chmodSync(lp, 0o755);
    try {
      await outputFor('cups://Cozinha', { lpCommand: lp }).write(bytes);
      expect(readFileSync(join(dir, 'args'), 'utf8').trim()).toBe('-d Cozinha -o raw');
      expect([...readFileSync(join(dir, 'bytes'))]).toEqual([...bytes]);
      await expect(outputFor('cups://Bar', { lpCommand: lp }).write(bytes)).rejects.toThrow(
        'A fila Bar recusou a impressão: lp: The printer or class does not exist.',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('printer status where the OS tells it: a USB device and a CUPS queue', () => {
  it('a USB printer answers DLE EOT through its device (a pseudo-terminal here); gone = offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-usb-'));
    const printed = join(dir, 'printed');
    const script = resolve(import.meta.dirname, '../../../test/fakes/ptyDevice.py');
    const device = spawn('python3', [script, STATUS_ANSWERS.ok.join(','), printed], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const path = await new Promise<string>((done) =>
        device.stdout?.once('data', (chunk: Buffer) => done(chunk.toString().trim())),
      );
      const usb = outputFor(`file://${path}`);
      expect(await usb.status()).toBe('ok');
      // The agent asks its idle printer now and then: the station's card says "Sem papel" with no job.
      const { shop, paired } = await pairedShop();
      const agent = startAgent(paired, undefined, { output: `file://${path}`, statusEveryMs: 100 });
      device.stdin?.write(`${STATUS_ANSWERS.paper_out.join(',')}\n`);
      const card = await until(async () => {
        const [row] = expectStatus(await shop.api.get('/printing/agents'), 200, 'agents');
        return row.printerState === 'paper_out' ? row : undefined;
      });
      expect(card.printerMessage).toBe('Sem papel');
      agent.stop();
      device.stdin?.write(`${STATUS_ANSWERS.ok.join(',')}\n`);
      await wait(100);
      device.stdin?.write(`${STATUS_ANSWERS.paper_out.join(',')}\n`);
      await until(async () => (await usb.status()) === 'paper_out', 3000);
      device.stdin?.write(`${STATUS_ANSWERS.cover_open.join(',')}\n`);
      await until(async () => (await usb.status()) === 'cover_open', 3000);
      await usb.write(Uint8Array.from([0x1b, 0x40, 0x41, 0x0a]));
      await until(() => existsSync(printed) && readFileSync(printed).length === 4, 3000);
      expect([...readFileSync(printed)]).toEqual([0x1b, 0x40, 0x41, 0x0a]);
      // A printer that never answers (write-only): unknown, and not asked again.
      device.stdin?.write('\n');
      await wait(100);
      const silent = outputFor(`file://${path}`);
      expect(await silent.status()).toBe('unknown');
    } finally {
      device.stdin?.end();
      device.kill();
    }
    // Switched off or unplugged: the device node is gone.
    expect(await outputFor(`file://${join(dir, 'lp7')}`).status()).toBe('offline');
    // A plain file tells nothing.
    writeFileSync(join(dir, 'arquivo'), '');
    expect(await outputFor(`file://${join(dir, 'arquivo')}`).status()).toBe('unknown');
    rmSync(dir, { recursive: true, force: true });
  });

  it("a CUPS queue's state from `lpstat -l -p`: paper out, cover open, offline, paused; no lpstat = unknown", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lpstat-'));
    const lpstat = join(dir, 'lpstat');
    // Answers like CUPS's systemv/lpstat.c in the C locale, from the text the test writes.
    writeFileSync(lpstat, `#!/bin/sh\n[ "$1 $2 $3" = "-l -p Cozinha" ] || exit 1\ncat ${dir}/answer\n`);
    chmodSync(lpstat, 0o755);
    const queue = outputFor('cups://Cozinha', { lpstatCommand: lpstat });
    const idle = 'printer Cozinha is idle.  enabled since Fri Nov 27 10:00:00 2026\n';
    const cases: [string, string][] = [
      [`${idle}\tDescription: Térmica\n\tAlerts: none\n`, 'ok'],
      [`${idle}\tDescription: Térmica\n\tAlerts: media-empty-warning\n`, 'ok'],
      [`${idle}\tDescription: Térmica\n\tAlerts: media-empty-error\n`, 'paper_out'],
      [`${idle}\tDescription: Térmica\n\tAlerts: cover-open\n`, 'cover_open'],
      [
        'printer Cozinha now printing Cozinha-12.  enabled since Fri Nov 27 10:00:00 2026\n\tWaiting for printer to become available.\n\tDescription: Térmica\n\tAlerts: offline-report\n',
        'offline',
      ],
      [
        'printer Cozinha disabled since Fri Nov 27 10:00:00 2026 -\n\tPaused\n\tDescription: Térmica\n\tAlerts: paused\n',
        'offline',
      ],
    ];
    try {
      for (const [answer, state] of cases) {
        writeFileSync(join(dir, 'answer'), answer);
        expect([answer, await queue.status()]).toEqual([answer, state]);
      }
      expect(await outputFor('cups://Outra', { lpstatCommand: lpstat }).status()).toBe('unknown');
      expect(await outputFor('cups://Cozinha', { lpstatCommand: join(dir, 'nada') }).status()).toBe(
        'unknown',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
