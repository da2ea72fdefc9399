import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { create } from 'tar';

/** apps/print-agent, the agent's source (the API runs from the repository, as its Dockerfile copies it). */
const AGENT_DIR = fileURLToPath(new URL('../../../../print-agent/', import.meta.url));

/**
 * Native packages left out of the bundle and installed by npm with the agent (serialport loads a
 * prebuilt binary for the PC's platform). Everything else, @balcao/core included, is in the bundle.
 */
const EXTERNAL = ['serialport'];

type AgentManifest = {
  version: string;
  description: string;
  dependencies: Record<string, string>;
};

/**
 * The print agent as an npm package (issue 36): one ES module bundled by esbuild from
 * apps/print-agent/src/cli.ts (socket.io-client, the ESC/POS encoder, pngjs, zod and core's schemas
 * inside, so no workspace-only dependency is left), its server set to PUBLIC_URL in its package.json
 * (`balcao.server`), packed as npm packs (`package/` in a gzipped tar). `npx --yes <url> --pair CODE`
 * installs it and runs its bin.
 */
async function buildAgentPackage(publicUrl: string): Promise<Buffer> {
  const source = JSON.parse(readFileSync(join(AGENT_DIR, 'package.json'), 'utf8')) as AgentManifest;
  const bundle = await build({
    entryPoints: [join(AGENT_DIR, 'src/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    write: false,
    external: EXTERNAL,
    logLevel: 'silent',
    // The CommonJS packages inside (pngjs, ws) call require() for Node's own modules.
    banner: {
      js: "#!/usr/bin/env node\nimport{createRequire as __balcaoRequire}from'node:module';const require=__balcaoRequire(import.meta.url);",
    },
  });
  const manifest = {
    name: 'balcao-print-agent',
    version: source.version,
    description: source.description,
    type: 'module',
    bin: { 'balcao-print-agent': 'bin/balcao-print-agent.mjs' },
    engines: { node: '>=20' },
    dependencies: Object.fromEntries(EXTERNAL.map((name) => [name, source.dependencies[name]])),
    balcao: { server: publicUrl.replace(/\/+$/, '') },
  };
  const dir = mkdtempSync(join(tmpdir(), 'balcao-agent-pack-'));
  try {
    await mkdir(join(dir, 'package/bin'), { recursive: true });
    writeFileSync(join(dir, 'package/package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(dir, 'package/bin/balcao-print-agent.mjs'), bundle.outputFiles[0].contents, {
      mode: 0o755,
    });
    writeFileSync(
      join(dir, 'package/README.md'),
      `# balcao-print-agent\n\nO agente de impressão do Balcão (${manifest.balcao.server}). Em Configurações > Impressoras, gere um código e rode:\n\n    npx --yes ${manifest.balcao.server}/v1/printing/agent/balcao-print-agent.tgz --pair CODIGO\n`,
    );
    const chunks: Buffer[] = [];
    const stream = create({ cwd: dir, gzip: true, portable: true, noMtime: true }, ['package']);
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let cached: { publicUrl: string; tarball: Promise<Buffer> } | null = null;

/** The package, built once per process (the first download waits about a second). */
export function agentPackage(publicUrl: string): Promise<Buffer> {
  if (cached?.publicUrl !== publicUrl) {
    const tarball = buildAgentPackage(publicUrl);
    cached = { publicUrl, tarball };
    // A failed build is tried again by the next download, not remembered.
    tarball.catch(() => {
      if (cached?.tarball === tarball) cached = null;
    });
  }
  return cached.tarball;
}
