import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { list } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemdUnit, windowsStartup } from '../../../../print-agent/src/service.ts';
import {
  decodeEscpos,
  type FakePrinter,
  startFakePrinter,
  textOf,
} from '../../../test/fakes/escposPrinter.ts';
import type { TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus, useTestApp } from '../../../test/kit.ts';

const run = promisify(execFile);

let t: TestApp;
const PUBLIC_URL = 'https://balcao.loja-exemplo.com.br';
useTestApp(
  { config: { apiKey: 'chave-de-teste', publicUrl: PUBLIC_URL }, sockets: true },
  (app) => ({ t } = app),
);

let printer: FakePrinter;
let work: string;
beforeAll(async () => {
  printer = await startFakePrinter();
  work = mkdtempSync(join(tmpdir(), 'agent-package-'));
});
const children: ChildProcess[] = [];
afterAll(() => {
  // npx runs the agent as its own child: the whole group goes, or the agent outlives the test run.
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  printer.close();
  rmSync(work, { recursive: true, force: true });
});

const PATH = '/v1/printing/agent/balcao-print-agent.tgz';
const serverUrl = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
/** npm with the registry reachable but its cache first, and a cache/npx folder of this test's own. */
const npmEnv = () => ({
  ...process.env,
  npm_config_cache: join(process.env.HOME ?? tmpdir(), '.npm'),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
});

async function until<T>(check: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('the print agent as one command (npx <PUBLIC_URL>/v1/printing/agent/balcao-print-agent.tgz)', () => {
  it('is served as an npm package: one bundled bin, no workspace-only dependency, its server is PUBLIC_URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: PATH });
    expect(res.statusCode).toBe(200);
    const tarball = res.rawPayload;
    expect([...tarball.subarray(0, 2)]).toEqual([0x1f, 0x8b]); // gzip
    const file = join(work, 'served.tgz');
    writeFileSync(file, tarball);
    const entries: string[] = [];
    let manifest = '';
    await list({
      file,
      onReadEntry: (entry) => {
        entries.push(entry.path);
        if (entry.path === 'package/package.json')
          entry.on('data', (chunk: Buffer) => {
            manifest += chunk.toString();
          });
      },
    });
    expect(entries.filter((path) => !path.endsWith('/')).sort()).toEqual([
      'package/README.md',
      'package/bin/balcao-print-agent.mjs',
      'package/package.json',
    ]);
    const pkg = JSON.parse(manifest);
    expect(pkg.name).toBe('balcao-print-agent');
    expect(pkg.bin).toEqual({ 'balcao-print-agent': 'bin/balcao-print-agent.mjs' });
    expect(Object.keys(pkg.dependencies)).toEqual(['serialport']);
    expect(pkg.balcao.server).toBe(PUBLIC_URL);
    expect(JSON.stringify(pkg)).not.toContain('@balcao/');
  });

  it('the card answers the command with the code; npx installs it, --version runs, --pair pairs, starts and prints', async () => {
    const shop = await asUser(t, [1]);
    const saved = expectStatus(
      await shop.api.put('/printing/settings', {
        profiles: [
          {
            key: 'cozinha',
            name: 'Cozinha',
            paperWidth: 80,
            columns: 48,
            codePage: 'PC860',
            copies: 1,
            cut: true,
          },
        ],
        sectors: [],
        receipt: { autoPrint: false, profileKey: null },
      }),
      200,
      'settings',
    );
    const profileId = saved.profiles[0].id;
    const created = expectStatus(
      await shop.api.post('/printing/agent', { name: 'PC da cozinha', profileIds: [profileId] }),
      201,
      'create agent',
    );
    expect(created.installCommand).toBe(`npx --yes ${PUBLIC_URL}${PATH} --pair ${created.code}`);

    // The shop owner's paste, on a PC where the server is this test's (PUBLIC_URL is not listening here).
    const url = `${serverUrl()}${PATH}`;
    const version = await run('npx', ['--yes', url, '--version'], { env: npmEnv(), timeout: 90_000 });
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../../../print-agent/package.json', import.meta.url), 'utf8'))
        .version,
    );

    const dir = join(work, 'agent');
    const before = printer.jobs.length;
    const child = spawn(
      'npx',
      [
        '--yes',
        url,
        '--pair',
        created.code,
        '--server',
        serverUrl(),
        '--printer',
        `tcp://127.0.0.1:${printer.port}`,
        '--dir',
        dir,
      ],
      { env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    await until(async () => {
      const agents = expectStatus(await shop.api.get('/printing/agents'), 200, 'agents');
      return agents.find((a: { id: number; connected: boolean }) => a.id === created.agent.id)?.connected;
    }, 60_000).catch((error) => {
      throw new Error(`${error.message}: ${output}`);
    });
    expect(output).toContain('Pareado como "PC da cozinha"');
    expectStatus(
      await shop.api.post('/printing/job', {
        profileId,
        kind: 'test',
        payload: { title: 'Teste', lines: ['Impressão de teste ação'] },
        idempotencyKey: 'agent-package-test-1',
      }),
      201,
      'enqueue',
    );
    const [bytes] = (await printer.waitForJobs(before + 1, 15_000)).slice(before);
    expect(textOf(decodeEscpos(bytes)).some((line) => line.includes('Impressão de teste ação'))).toBe(true);
  }, 150_000);

  it('--service writes a systemd user unit and a Windows start that run the installed copy and stop on a revoke', () => {
    const files = {
      node: '/usr/bin/node',
      entry: '/home/loja/.balcao-print-agent/app/node_modules/balcao-print-agent/bin/balcao-print-agent.mjs',
      dir: '/home/loja/.balcao-print-agent',
    };
    const unit = systemdUnit(files);
    expect(unit).toContain(
      'ExecStart="/usr/bin/node" "/home/loja/.balcao-print-agent/app/node_modules/balcao-print-agent/bin/balcao-print-agent.mjs" start --dir "/home/loja/.balcao-print-agent"',
    );
    expect(unit).toContain('Restart=always');
    expect(unit).toContain('RestartPreventExitStatus=2');
    expect(unit).toContain('WantedBy=default.target');
    const cmd = windowsStartup({ ...files, node: 'C:\\Program Files\\nodejs\\node.exe' });
    expect(cmd).toContain('"C:\\Program Files\\nodejs\\node.exe" "/home/loja');
    expect(cmd).toContain('if %ERRORLEVEL%==2 goto revoked');
  });
});
