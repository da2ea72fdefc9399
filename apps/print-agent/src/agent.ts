import {
  PRINT_AGENT_RESULT_EVENT,
  PRINT_AGENT_SCALE_EVENT,
  PRINT_AGENT_STATE_EVENT,
  PRINTER_STATE_LABELS,
  type PrintAgentResult,
  type PrinterState,
  SCALE_HEARTBEAT_MS,
} from '@balcao/core/printAgent';
import { PRINT_JOB_EVENT, type PrintJob } from '@balcao/core/printing';
import { io, type Socket } from 'socket.io-client';
import { type AgentConfig, outputOf } from './config.ts';
import { type Output, outputFor } from './devices/index.ts';
import { PrinterUnavailable, stopsPrinting } from './devices/status.ts';
import { Journal, type Staged } from './journal.ts';
import { LogoCache } from './logo.ts';
import { renderJob } from './render.ts';
import { type ScaleUpdate, SerialScale } from './scale.ts';

export type AgentOptions = {
  config: AgentConfig;
  /** The agent's folder (the journal lives in it). */
  dir: string;
  /** How long a held job waits before the printer is asked again (paper out, cover open, offline). */
  retryMs?: number;
  /**
   * How often an idle printer is asked its status (30 s by default; 0: never), so Configurações >
   * Impressoras shows "Sem papel" or "desligada" before a job finds it out.
   */
  statusEveryMs?: number;
  log?: (message: string) => void;
  /** Test hooks: a pause at a step (the tests kill the process there). */
  pauseBeforePrintMs?: number;
  pauseBeforeAckMs?: number;
  /** After the printer took the bytes, before anything else (where a crash used to print twice). */
  pauseAfterWriteMs?: number;
  /** How often the scale is asked its weight (300 ms by default). */
  scaleEveryMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REVOKED = 'Agente de impressão inválido ou revogado';

/**
 * The print agent (issue 36): a socket to the API as its station, a queue per printer output, and
 * the journal. A job is acknowledged to the API only after the printer accepted its bytes; a printer
 * that cannot print (DLE EOT status, or no connection) keeps its jobs queued, says so to the API, and
 * is asked again every `retryMs`.
 */
export class PrintAgent {
  private readonly journal: Journal;
  private readonly logos: LogoCache;
  private readonly outputs = new Map<string, Output>();
  /** The waiting job ids of each output URL, in order. */
  private readonly queues = new Map<string, number[]>();
  private readonly running = new Set<string>();
  private readonly states = new Map<string, PrinterState>();
  private socket: Socket | null = null;
  private stopped = false;
  private statusTimer: ReturnType<typeof setInterval> | null = null;
  private scale: SerialScale | null = null;
  /** The scale's last update sent to the API (JSON) and when. */
  private scaleSent = { text: '', at: 0 };
  private readonly log: (message: string) => void;
  /** Settles when the API refused the token (revoked). */
  revoked: Promise<void>;
  private onRevoked: () => void = () => {};

  constructor(private readonly options: AgentOptions) {
    this.journal = new Journal(options.dir);
    this.log = options.log ?? ((message) => console.log(`[balcao-print-agent] ${message}`));
    this.logos = new LogoCache(options.dir, options.config.server, this.log);
    this.revoked = new Promise((resolve) => {
      this.onRevoked = resolve;
    });
  }

  /** Picks up what the journal holds (printed-not-acked, received-not-printed), then connects. */
  start() {
    this.journal.prune();
    for (const entry of this.journal.all()) if (entry.state === 'received') this.enqueue(entry.job);
    const { config } = this.options;
    const socket = io(config.server, {
      path: '/socket.io',
      query: { key: config.socketKey },
      auth: { agentToken: config.token },
      transports: ['websocket'],
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
    this.socket = socket;
    socket.on('connect', () => {
      this.log(`conectado a ${config.server} como "${config.name}"`);
      this.scaleSent = { text: '', at: 0 };
      void this.flushResults();
    });
    socket.on('connect_error', (error) => {
      if (error.message === REVOKED) {
        this.log('o token deste agente foi revogado: pareie de novo');
        socket.close();
        this.onRevoked();
      }
    });
    socket.on('disconnect', (reason) => this.log(`desconectado (${reason})`));
    socket.on(PRINT_JOB_EVENT, (job: PrintJob) => this.receive(job));
    for (const url of this.queues.keys()) void this.pump(url);
    const every = this.options.statusEveryMs ?? 30_000;
    if (every > 0) this.statusTimer = setInterval(() => void this.checkIdlePrinters(), every);
    if (config.scale) {
      this.scale = new SerialScale(config.scale, (update) => this.relayScale(update), {
        everyMs: this.options.scaleEveryMs,
      });
      this.scale.start();
    }
  }

  /**
   * The scale's answer to the API (and from there to the PDV): each change at once, an unchanged one
   * every SCALE_HEARTBEAT_MS, so the PDV knows the scale is still there. Not connected: dropped (a
   * weight is only worth its moment).
   */
  private relayScale(update: ScaleUpdate) {
    const text = JSON.stringify(update);
    const now = Date.now();
    if (text === this.scaleSent.text && now - this.scaleSent.at < SCALE_HEARTBEAT_MS) return;
    if (text !== this.scaleSent.text && update.error) this.log(`balança: ${update.error}`);
    if (!this.socket?.connected) return;
    this.scaleSent = { text, at: now };
    this.socket.emit(PRINT_AGENT_SCALE_EVENT, update);
  }

  /** Closes the socket; jobs in the journal stay there for the next start. */
  stop() {
    this.stopped = true;
    if (this.statusTimer) clearInterval(this.statusTimer);
    void this.scale?.stop();
    this.socket?.close();
  }

  /**
   * Asks each configured printer that is not printing now for its status (DLE EOT on TCP and USB,
   * lpstat for a CUPS queue) and tells the API when it changed: the station's card shows it.
   */
  private async checkIdlePrinters() {
    if (!this.socket?.connected) return;
    for (const url of new Set(Object.values(this.options.config.printers))) {
      if (this.running.has(url) || this.stopped) continue;
      let state: PrinterState;
      try {
        state = await this.outputAt(url).status();
      } catch {
        state = 'unknown';
      }
      if (state === 'unknown' || this.states.get(url) === state) continue;
      this.states.set(url, state);
      const message = state === 'ok' ? '' : PRINTER_STATE_LABELS[state];
      if (state !== 'ok') this.log(`${url}: ${message}`);
      this.socket?.emit(PRINT_AGENT_STATE_EVENT, { state, message, heldJobs: this.heldJobs() });
    }
  }

  /** A job from the API: new -> journal and queue; known -> only what its entry still needs. */
  receive(job: PrintJob) {
    const entry = this.journal.get(job.id);
    if (entry?.state === 'printed' || entry?.state === 'acked') {
      // Printed before (the API did not hear it, or handed it again): acknowledge, never print again.
      void this.sendResult(job.id, { jobId: job.id, outcome: 'printed', state: 'ok', message: '' });
      return;
    }
    if (entry?.state === 'failed') {
      void this.sendFailed(job);
      return;
    }
    if (!entry) this.journal.put(job, 'received', false);
    this.enqueue(job);
  }

  private enqueue(job: PrintJob) {
    const url = outputOf(this.options.config, job.profile.id);
    if (!url) {
      void this.sendFailed(job);
      return;
    }
    const queue = this.queues.get(url) ?? [];
    this.queues.set(url, queue);
    if (!queue.includes(job.id)) queue.push(job.id);
    void this.pump(url);
  }

  private async sendFailed(job: PrintJob) {
    this.journal.put(job, 'failed');
    const message = `Nenhuma impressora configurada no agente para o perfil ${job.profile.name}`;
    this.log(message);
    await this.sendResult(job.id, { jobId: job.id, outcome: 'failed', state: 'unknown', message });
  }

  private outputAt(url: string): Output {
    let output = this.outputs.get(url);
    if (!output) {
      output = outputFor(url);
      this.outputs.set(url, output);
    }
    return output;
  }

  /** Prints an output's queue in order, one job at a time; a stopped printer holds the queue. */
  private async pump(url: string) {
    if (this.running.has(url) || this.stopped || !this.socket) return;
    this.running.add(url);
    try {
      const queue = this.queues.get(url) ?? [];
      while (queue.length > 0 && !this.stopped) {
        const id = queue[0];
        const entry = this.journal.get(id);
        if (entry?.state !== 'received') {
          queue.shift();
          continue;
        }
        const printed = await this.printOne(url, entry.job, queue.length);
        if (!printed) {
          await sleep(this.options.retryMs ?? 3_000);
          continue;
        }
        queue.shift();
      }
    } finally {
      this.running.delete(url);
    }
  }

  /** One job on one output: status, bytes, journal, ack. False when the printer held it. */
  private async printOne(url: string, job: PrintJob, queued: number): Promise<boolean> {
    const output = this.outputAt(url);
    let staged: Staged | null = null;
    let committed = false;
    // "printed" is staged on disk (synced) before the bytes go, and taken the moment they leave the
    // process. The stage is written while the printer answers its status (both wait on something
    // else than this process: the disk, the printer), not one after the other.
    const staging = this.journal.stageAsync(job, 'printed');
    staging.catch(() => undefined); // a failed stage is the try's error below
    try {
      // A label printer speaks ZPL/EPL, not ESC/POS: no DLE EOT status is asked of it.
      const state = job.kind === 'label' ? 'ok' : await output.status(true);
      staged = await staging;
      if (stopsPrinting(state)) throw new PrinterUnavailable(state, PRINTER_STATE_LABELS[state]);
      const logo = job.kind === 'receipt' ? await this.logos.get(job.payload.logo) : null;
      if (this.options.pauseBeforePrintMs) await sleep(this.options.pauseBeforePrintMs);
      const bytes = renderJob(job, { codepageMapping: this.options.config.codepageMapping, logo });
      const stage = staged;
      // The folder's sync after the rename runs while the printer reads and closes; both are waited.
      let folderSynced: Promise<void> = Promise.resolve();
      await output.write(bytes, () => {
        if (committed) return;
        folderSynced = stage.commitAsync();
        committed = true;
      });
      if (!committed) {
        folderSynced = stage.commitAsync();
        committed = true;
      }
      await folderSynced;
      if (this.options.pauseAfterWriteMs) await sleep(this.options.pauseAfterWriteMs);
    } catch (error) {
      // Not accepted after all: the job is the agent's to print again.
      if (committed) this.journal.put(job, 'received');
      else (staged ?? (await staging.catch(() => null)))?.discard();
      const state = error instanceof PrinterUnavailable ? error.state : 'error';
      const message = (error as Error).message;
      if (this.states.get(url) !== state) this.log(`${url}: ${message} (${queued} na fila)`);
      this.states.set(url, state);
      await this.sendResult(job.id, { jobId: job.id, outcome: 'held', state, message }, false);
      this.socket?.emit(PRINT_AGENT_STATE_EVENT, { state, message, heldJobs: this.heldJobs() });
      return false;
    }
    if (this.states.get(url) !== 'ok') {
      this.states.set(url, 'ok');
      this.socket?.emit(PRINT_AGENT_STATE_EVENT, { state: 'ok', message: '', heldJobs: this.heldJobs() - 1 });
    }
    this.log(`impresso: ${job.payload.title} (#${job.id})`);
    if (this.options.pauseBeforeAckMs) await sleep(this.options.pauseBeforeAckMs);
    // Not awaited: the next ticket prints while the API stores this one's result (its answer waits
    // behind the API's database, 20 waiters sending at once: bench/kitchen-print.ts). The journal says
    // printed already; the ack only moves it to acked, and a lost one is sent again on reconnect.
    void this.sendResult(job.id, { jobId: job.id, outcome: 'printed', state: 'ok', message: '' });
    return true;
  }

  private heldJobs() {
    let held = 0;
    for (const [url, queue] of this.queues)
      if (stopsPrinting(this.states.get(url) ?? 'ok')) held += queue.length;
    return held;
  }

  /**
   * Tells the API a job's result and waits for its ack; a printed/failed result acknowledged is
   * journaled as such. Not connected (or no ack): it is sent again on the next connection.
   */
  private async sendResult(id: number, result: PrintAgentResult, journal = true): Promise<void> {
    const socket = this.socket;
    if (!socket?.connected) return;
    try {
      const answer = (await socket.timeout(10_000).emitWithAck(PRINT_AGENT_RESULT_EVENT, result)) as {
        ok: boolean;
      };
      if (answer?.ok && journal && result.outcome === 'printed') {
        const entry = this.journal.get(id);
        if (entry) this.journal.put(entry.job, 'acked', false);
      }
    } catch {
      // No answer: flushResults sends it again after the next connect.
    }
  }

  /** After a (re)connection: the printed jobs the API has not acknowledged yet. */
  private async flushResults() {
    for (const entry of this.journal.all())
      if (entry.state === 'printed')
        await this.sendResult(entry.job.id, {
          jobId: entry.job.id,
          outcome: 'printed',
          state: 'ok',
          message: '',
        });
    for (const url of this.queues.keys()) void this.pump(url);
  }
}
