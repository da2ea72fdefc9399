import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Where the agent's own package.json says it came from (the API writes `balcao.server` when it packs it). */
export type AgentPackageInfo = { version: string; server: string | null };

/** The package URL on a Balcão server (core's PRINT_AGENT_PACKAGE_PATH under /v1). */
const packageUrlOf = (server: string) => `${server}/v1/printing/agent/balcao-print-agent.tgz`;

type ServiceFiles = { node: string; entry: string; dir: string };

const quote = (value: string) => `"${value.replace(/(["\\])/g, '\\$1')}"`;

/**
 * The systemd user unit (`systemctl --user`): the agent runs as the user who paired it (their config,
 * their `lp`/`dialout` groups), restarts by itself, and stays stopped after a revoke (exit code 2).
 */
export const systemdUnit = ({
  node,
  entry,
  dir,
}: ServiceFiles) => `# The Balcão print agent (written by balcao-print-agent --service).
[Unit]
Description=Balcão print agent (ESC/POS printers and the cash drawer)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=${quote(node)} ${quote(entry)} start --dir ${quote(dir)}
# SIGTERM closes the socket; jobs not yet printed stay in the journal for the next start.
KillSignal=SIGTERM
Restart=always
RestartSec=3
# Exit code 2: the agent was revoked in Configurações > Impressoras; pair it again.
RestartPreventExitStatus=2

[Install]
WantedBy=default.target
`;

/** The Windows start: a .cmd in the user's Startup folder that runs the agent and restarts it. */
export const windowsStartup = ({ node, entry, dir }: ServiceFiles) => {
  const q = (value: string) => `"${value}"`; // cmd.exe: backslashes are path separators, not escapes
  return [
    '@echo off',
    'rem The Balcao print agent (written by balcao-print-agent --service): starts with the session.',
    ':loop',
    `${q(node)} ${q(entry)} start --dir ${q(dir)}`,
    'if %ERRORLEVEL%==2 goto revoked',
    'timeout /t 3 /nobreak >nul',
    'goto loop',
    ':revoked',
    'echo O agente foi revogado: gere um novo codigo em Configuracoes ^> Impressoras e pareie de novo.',
    'pause',
    '',
  ].join('\r\n');
};

function run(command: string, args: string[], what: string) {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error(`Falhou: ${what} (${command} ${args.join(' ')})`);
}

/**
 * `--service`: installs the package for good in the agent's folder (npx's copy is a cache that npm may
 * clean), then makes it start with the computer: a systemd user unit (with lingering, so it runs
 * without anyone logged in) on Linux, a .cmd in the Startup folder on Windows.
 */
export function installService(server: string, dir: string) {
  const app = join(dir, 'app');
  mkdirSync(app, { recursive: true });
  console.log(`Instalando o agente em ${app}...`);
  run(
    'npm',
    ['install', '--prefix', app, '--no-audit', '--no-fund', '--omit=dev', packageUrlOf(server)],
    'instalar o agente',
  );
  const files = {
    node: process.execPath,
    entry: join(app, 'node_modules/balcao-print-agent/bin/balcao-print-agent.mjs'),
    dir,
  };
  if (process.platform === 'win32') {
    const startup = join(
      process.env.APPDATA ?? join(homedir(), 'AppData/Roaming'),
      'Microsoft/Windows/Start Menu/Programs/Startup',
    );
    mkdirSync(startup, { recursive: true });
    const file = join(startup, 'balcao-print-agent.cmd');
    writeFileSync(file, windowsStartup(files));
    run('cmd', ['/c', 'start', '"Balcao"', '/min', `"${file}"`], 'iniciar o agente');
    console.log(`O agente inicia com o Windows (${file}) e já está rodando.`);
    return;
  }
  if (process.platform !== 'linux')
    throw new Error(
      `--service funciona no Linux (systemd) e no Windows; aqui, rode: ${quote(files.node)} ${quote(files.entry)} start`,
    );
  const units = join(homedir(), '.config/systemd/user');
  mkdirSync(units, { recursive: true });
  writeFileSync(join(units, 'balcao-print-agent.service'), systemdUnit(files));
  run('systemctl', ['--user', 'daemon-reload'], 'recarregar o systemd');
  run('systemctl', ['--user', 'enable', '--now', 'balcao-print-agent'], 'ativar o serviço');
  // Lingering starts the user's services at boot, with nobody logged in (may ask for the password).
  const linger = spawnSync('loginctl', ['enable-linger', userInfo().username], { stdio: 'inherit' });
  if (linger.status !== 0)
    console.log(`Rode "sudo loginctl enable-linger ${userInfo().username}" para o agente iniciar sem login.`);
  console.log('Serviço balcao-print-agent ativo: veja com "systemctl --user status balcao-print-agent".');
}
