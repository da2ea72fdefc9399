import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { printAgentPairAnswerSchema } from '@balcao/core/printAgent';
import { SCALE_PROTOCOLS, type ScaleProtocol } from '@balcao/core/scale/serialScale';
import { PrintAgent } from './agent.ts';
import { type AgentConfig, configPath, defaultDir, readConfig, writeConfig } from './config.ts';
import { outputFor } from './devices/index.ts';
import { type AgentPackageInfo, installService } from './service.ts';

/**
 * This package's own package.json: its version and, in the package the API serves, the server it came
 * from (`balcao.server`), so the one command needs no --server. Same relative path from src/cli.ts in
 * the repository and from bin/balcao-print-agent.mjs in the bundle.
 */
function packageInfo(): AgentPackageInfo {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
      balcao?: { server?: string };
    };
    return { version: manifest.version ?? '0.0.0', server: manifest.balcao?.server ?? null };
  } catch {
    return { version: '0.0.0', server: null };
  }
}

const USAGE = `Balcão print agent

  npx --yes https://seu-balcao/v1/printing/agent/balcao-print-agent.tgz --pair CÓDIGO [--printer URL] [--service]
      Instala, pareia e inicia (o comando aparece pronto em Configurações > Impressoras).
      --service             instala de vez e inicia com o computador (systemd no Linux, Inicializar no Windows)
  balcao-print-agent pair CÓDIGO --server https://seu-balcao --printer tcp://192.168.0.50:9100
      Pareia este computador com a estação criada em Configurações > Impressoras (sem iniciar).
      --printer URL         a impressora de todos os perfis (tcp://IP:9100, file:///dev/usb/lp0, cups://FILA)
      --printer ID=URL      a impressora de um perfil (repita para cada perfil)
      --codepages NOME      tabela de páginas de código da impressora (epson, star, xprinter...; padrão epson)
      --scale PORTA         a balança serial deste computador (/dev/ttyUSB0, COM3), lida ao vivo no PDV
      --scale-protocol P    toledo (padrão) ou filizola;  --scale-baud N  velocidade (padrão 9600)
  balcao-print-agent start
      Conecta e imprime os trabalhos da estação (deixe rodando; veja docs/print-agent.md).

  --dir PASTA   pasta do agente (config e diário); padrão ~/.balcao-print-agent ou BALCAO_AGENT_DIR
  --version     a versão do agente
`;

function printersOf(values: string[] | undefined, into: Record<string, string>) {
  for (const value of values ?? []) {
    const match = /^(\d+)=(.+)$/.exec(value);
    const [key, url] = match ? [match[1], match[2]] : ['*', value];
    outputFor(url); // refuses an unknown scheme now, not at the first job
    into[key] = url;
  }
}

async function pair(
  code: string,
  options: {
    server?: string;
    printer?: string[];
    codepages?: string;
    scale?: string;
    'scale-protocol'?: string;
    'scale-baud'?: string;
    dir: string;
  },
) {
  if (!options.server) throw new Error('Informe --server (o endereço do Balcão)');
  const protocol = options['scale-protocol'] ?? 'toledo';
  if (!SCALE_PROTOCOLS.includes(protocol as ScaleProtocol))
    throw new Error(`Protocolo de balança desconhecido: ${protocol} (use toledo ou filizola)`);
  const baud = options['scale-baud'] ? Number(options['scale-baud']) : undefined;
  if (baud !== undefined && !(Number.isInteger(baud) && baud > 0))
    throw new Error(`Velocidade da balança inválida: ${options['scale-baud']}`);
  const server = options.server.replace(/\/+$/, '');
  const response = await fetch(`${server}/v1/printing/agent/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(body.message ?? `O Balcão respondeu ${response.status}`);
  const answer = printAgentPairAnswerSchema.parse(body);
  const printers: Record<string, string> = {};
  printersOf(options.printer, printers);
  const config: AgentConfig = {
    server,
    agentId: answer.agentId,
    name: answer.name,
    token: answer.token,
    socketKey: answer.socketKey,
    printers,
    ...(options.codepages ? { codepageMapping: options.codepages } : {}),
    ...(options.scale
      ? {
          scale: {
            path: options.scale,
            protocol: protocol as ScaleProtocol,
            ...(baud ? { baudRate: baud } : {}),
          },
        }
      : {}),
  };
  writeConfig(options.dir, config);
  console.log(
    `Pareado como "${answer.name}" (perfis ${answer.profileIds.join(', ')}). Config: ${configPath(options.dir)}`,
  );
  if (Object.keys(printers).length === 0)
    console.log('Nenhuma impressora informada: edite "printers" na config ou pareie de novo com --printer.');
  return config;
}

function start(dir: string) {
  const config = readConfig(dir);
  const agent = new PrintAgent({
    config,
    dir,
    retryMs: Number(process.env.BALCAO_AGENT_RETRY_MS ?? 3_000),
    pauseBeforePrintMs: Number(process.env.BALCAO_AGENT_PAUSE_BEFORE_PRINT_MS ?? 0),
    pauseBeforeAckMs: Number(process.env.BALCAO_AGENT_PAUSE_BEFORE_ACK_MS ?? 0),
    pauseAfterWriteMs: Number(process.env.BALCAO_AGENT_PAUSE_AFTER_WRITE_MS ?? 0),
  });
  agent.start();
  void agent.revoked.then(() => process.exit(2));
  const quit = () => {
    agent.stop();
    process.exit(0);
  };
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      printer: { type: 'string', multiple: true },
      codepages: { type: 'string' },
      scale: { type: 'string' },
      'scale-protocol': { type: 'string' },
      'scale-baud': { type: 'string' },
      dir: { type: 'string' },
      pair: { type: 'string' },
      service: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const info = packageInfo();
  if (values.version) return console.log(info.version);
  const dir = values.dir ?? defaultDir();
  const server = values.server ?? info.server ?? undefined;
  const [command, code] = positionals;
  if (values.pair) {
    // The one command: pair, then run here (or install the service, which runs it).
    const config = await pair(values.pair, { ...values, server, dir });
    if (values.service) return installService(config.server, dir);
    return start(dir);
  }
  if (values.service) return installService(readConfig(dir).server, dir);
  if (command === 'pair' && code) return void (await pair(code, { ...values, server, dir }));
  if (command === 'start') return start(dir);
  console.log(USAGE);
  if (!values.help) process.exitCode = 1;
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
