import { REQUIRED, z } from './zod.ts';

/**
 * The print agent (issue 36): a Node program next to the shop's printers, paired with a print station
 * by a code, that prints the station's jobs as ESC/POS without any dialog. What the API and the agent
 * (apps/print-agent) both read: the pairing's inputs and answers, the socket events and the printer's
 * states. The agent's socket is authenticated by its own token (`auth.agentToken`), never a user's.
 */

/** A pairing code: 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L), valid 15 minutes. */
export const PAIRING_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_CODE_MINUTES = 15;

/** What the printer answered to the ESC/POS real-time status (DLE EOT), or `unknown` (no answer). */
export const PRINTER_STATES = ['ok', 'paper_out', 'cover_open', 'offline', 'error', 'unknown'] as const;
export type PrinterState = (typeof PRINTER_STATES)[number];
export const PRINTER_STATE_LABELS: Record<PrinterState, string> = {
  ok: 'Pronta',
  paper_out: 'Sem papel',
  cover_open: 'Tampa aberta',
  offline: 'Impressora desligada ou fora da rede',
  error: 'Erro na impressora',
  unknown: 'Sem informação',
};

/** POST /v1/printing/agent: a new agent for a station (its name and the profiles it prints). */
export const printAgentInputSchema = z.object({
  name: z
    .string({ message: REQUIRED })
    .trim()
    .min(1, 'Informe o nome da estação')
    .max(60, 'No máximo 60 caracteres'),
  profileIds: z
    .array(z.number().int().positive())
    .min(1, 'Escolha ao menos um perfil de impressora')
    .max(20, 'No máximo 20 perfis'),
});
export type PrintAgentInput = z.infer<typeof printAgentInputSchema>;

export const printAgentSchema = z.object({
  id: z.number(),
  name: z.string(),
  profileIds: z.array(z.number()),
  /** Waiting for its code to be used (pairing), paired, or revoked. */
  status: z.enum(['pairing', 'paired', 'revoked']),
  /** Connected to the API now. */
  connected: z.boolean(),
  printerState: z.enum(PRINTER_STATES),
  /** What the agent said last about its printer (Portuguese), or null. */
  printerMessage: z.string().nullable(),
  /** Jobs the agent holds because its printer cannot print (paper out, cover open, offline). */
  heldJobs: z.number(),
  createdAt: z.string(),
  pairedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export type PrintAgent = z.infer<typeof printAgentSchema>;

/** The answer of a new agent: the code to type on the agent's PC (shown once). */
export const printAgentPairingSchema = z.object({
  agent: printAgentSchema,
  code: z.string(),
  expiresAt: z.string(),
  /** The one command to paste on the printer PC: installs the agent, pairs it with this code, starts it. */
  installCommand: z.string(),
});

/**
 * Where the API serves the agent as an npm package (a .tgz bundled from apps/print-agent), under the
 * server's PUBLIC_URL: `npx --yes <PUBLIC_URL>/v1/printing/agent/balcao-print-agent.tgz --pair CODE`.
 */
export const PRINT_AGENT_PACKAGE_PATH = '/printing/agent/balcao-print-agent.tgz';

/** The one command that installs, pairs and starts the agent (`--service` also makes it a service). */
export const printAgentInstallCommand = (publicUrl: string, code: string) =>
  `npx --yes ${publicUrl.replace(/\/+$/, '')}/v1${PRINT_AGENT_PACKAGE_PATH} --pair ${code}`;

/** POST /v1/printing/agent/pair: the agent exchanges the code for its own token. */
export const printAgentPairInputSchema = z.object({
  code: z
    .string(REQUIRED)
    .trim()
    .toUpperCase()
    .min(1, 'Informe o código de pareamento')
    .max(20, 'Código de pareamento inválido'),
});

export const printAgentPairAnswerSchema = z.object({
  agentId: z.number(),
  name: z.string(),
  profileIds: z.array(z.number()),
  /** The agent's token (shown once; stored by the API only as its SHA-256). */
  token: z.string(),
  /** The socket's API key (the same public key the web app carries). */
  socketKey: z.string(),
});
export type PrintAgentPairAnswer = z.infer<typeof printAgentPairAnswerSchema>;

/** Agent -> API: what happened to a job (with an ack: the API answers `{ok}` once it stored it). */
export const PRINT_AGENT_RESULT_EVENT = 'printAgentResult';
/** Agent -> API: the printer's state changed (no job involved). */
export const PRINT_AGENT_STATE_EVENT = 'printAgentState';

export const printAgentResultSchema = z.object({
  jobId: z.number().int().positive(),
  /**
   * printed: the printer accepted the bytes; held: the printer cannot print now (the agent keeps the
   * job and tries again); failed: the agent cannot print it at all (no printer for the profile).
   */
  outcome: z.enum(['printed', 'held', 'failed']),
  state: z.enum(PRINTER_STATES).default('unknown'),
  message: z.string().max(300).default(''),
});
export type PrintAgentResult = z.infer<typeof printAgentResultSchema>;

export const printAgentStateSchema = z.object({
  state: z.enum(PRINTER_STATES),
  message: z.string().max(300).default(''),
  heldJobs: z.number().int().min(0).default(0),
});
export type PrintAgentStateReport = z.infer<typeof printAgentStateSchema>;

/**
 * The scale on the agent's PC (issue 36): the agent asks its serial scale (Toledo/Filizola, core
 * scale/serialScale.ts) a few times a second and sends each change, and a heartbeat, as
 * PRINT_AGENT_SCALE_EVENT; the API relays it to the shop's open screens as SCALE_READING_EVENT with the
 * agent's id and name, and the PDV shows it live for products sold by kg.
 */
export const PRINT_AGENT_SCALE_EVENT = 'printAgentScale';
export const SCALE_READING_EVENT = 'scaleReading';
/** The agent sends an unchanged reading again this often, so a screen knows the scale is still there. */
export const SCALE_HEARTBEAT_MS = 2_000;
/** A screen forgets an agent's scale after this long without a word (agent closed, cable pulled). */
export const SCALE_STALE_MS = 5_000;

export const scaleReadingSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('stable'), grams: z.number().int().min(0).max(99_999) }),
  z.object({ status: z.literal('unstable') }),
  z.object({ status: z.literal('negative') }),
  z.object({ status: z.literal('overload') }),
]);

/** Agent -> API: the scale's reading now, or null with the reason (port closed, no answer). */
export const printAgentScaleSchema = z.object({
  reading: scaleReadingSchema.nullable(),
  error: z.string().max(300).default(''),
});
export type PrintAgentScaleReport = z.infer<typeof printAgentScaleSchema>;

/** API -> the shop's screens: an agent's scale reading. */
export type AgentScaleReading = PrintAgentScaleReport & { agentId: number; agentName: string };
