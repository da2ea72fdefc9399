import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ScaleConfig } from './scale.ts';

/** What `pair` writes and `start` reads: the agent's identity and where each profile prints. */
export type AgentConfig = {
  /** The API's address (https://balcao.example.com). */
  server: string;
  agentId: number;
  name: string;
  /** The agent's own token (from pairing; revocable in Configurações > Impressoras). */
  token: string;
  /** The socket's API key. */
  socketKey: string;
  /**
   * The output of each printer profile, by the profile's id, '*' for every other one:
   * tcp://192.168.0.50:9100, file:///dev/usb/lp0, cups://QUEUE.
   */
  printers: Record<string, string>;
  /** The printer's code page table for ESC t (the encoder's: 'epson' by default, 'star', 'xprinter'...). */
  codepageMapping?: string;
  /** The counter scale on a serial port of this PC (Toledo or Filizola), relayed live to the PDV. */
  scale?: ScaleConfig;
};

/** The agent's folder: its config and its journal (BALCAO_AGENT_DIR, or ~/.balcao-print-agent). */
export const defaultDir = () => process.env.BALCAO_AGENT_DIR ?? join(homedir(), '.balcao-print-agent');

export const configPath = (dir: string) => join(dir, 'config.json');

export function readConfig(dir: string): AgentConfig {
  try {
    return JSON.parse(readFileSync(configPath(dir), 'utf8')) as AgentConfig;
  } catch {
    throw new Error(
      `Agente não pareado: rode "balcao-print-agent pair CÓDIGO --server URL" (${configPath(dir)})`,
    );
  }
}

export function writeConfig(dir: string, config: AgentConfig) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(configPath(dir), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** The output URL a profile prints on, or null. */
export const outputOf = (config: AgentConfig, profileId: number): string | null =>
  config.printers[String(profileId)] ?? config.printers['*'] ?? null;
