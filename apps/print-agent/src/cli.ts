import { parseArgs } from 'node:util';
import { printAgentPairAnswerSchema } from '@balcao/core/printAgent';
import { SCALE_PROTOCOLS, type ScaleProtocol } from '@balcao/core/scale/serialScale';
import { PrintAgent } from './agent.ts';
import { type AgentConfig, configPath, defaultDir, readConfig, writeConfig } from './config.ts';
import { outputFor } from './devices/index.ts';

const USAGE = `Balcão print agent

  balcao-print-agent pair CÓDIGO --server https://seu-balcao --printer tcp://192.168.0.50:9100
      Pareia este computador com a estação criada em Configurações > Impressoras.
      --printer URL         a impressora de todos os perfis (tcp://IP:9100, file:///dev/usb/lp0, cups://FILA)
      --printer ID=URL      a impressora de um perfil (repita para cada perfil)
      --codepages NOME      tabela de páginas de código da impressora (epson, star, xprinter...; padrão epson)
      --scale PORTA         a balança serial deste computador (/dev/ttyUSB0, COM3), lida ao vivo no PDV
      --scale-protocol P    toledo (padrão) ou filizola;  --scale-baud N  velocidade (padrão 9600)
  balcao-print-agent start
      Conecta e imprime os trabalhos da estação (deixe rodando; veja docs/print-agent.md).

  --dir PASTA   pasta do agente (config e diário); padrão ~/.balcao-print-agent ou BALCAO_AGENT_DIR
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const dir = values.dir ?? defaultDir();
  const [command, code] = positionals;
  if (command === 'pair' && code) return pair(code, { ...values, dir });
  if (command === 'start') return start(dir);
  console.log(USAGE);
  if (!values.help) process.exitCode = 1;
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
