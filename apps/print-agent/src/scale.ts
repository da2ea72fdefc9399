import {
  readWeight,
  SCALE_SERIAL_DEFAULTS,
  type ScaleProtocol,
  type ScaleReading,
  type ScaleTransport,
} from '@balcao/core/scale/serialScale';
import { SerialPort } from 'serialport';

/** Where the agent's scale is: its serial port and protocol (config.scale). */
export type ScaleConfig = {
  /** The serial port: /dev/ttyUSB0, /dev/ttyS0, COM3 (or a pseudo-terminal in the tests). */
  path: string;
  protocol: ScaleProtocol;
  /** 9600 unless the scale was set otherwise. */
  baudRate?: number;
};

/** What the agent tells the API after each question to the scale: the reading, or why there is none. */
export type ScaleUpdate = { reading: ScaleReading | null; error: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The counter scale on the agent's PC (issue 36): the `serialport` package opens the port (8N1 at the
 * scale's speed), and core's `readWeight` asks ENQ and reads the Toledo/Filizola frame. It asks every
 * `everyMs` and calls `onUpdate` with each answer; a port that cannot open or closes is opened again
 * after `reopenMs`, so a scale unplugged and plugged back is read again without restarting the agent.
 */
export class SerialScale {
  private port: SerialPort | null = null;
  private stopped = false;
  /** Bytes read and not handed to readWeight yet, and who waits for them. */
  private chunks: Uint8Array[] = [];
  private waiting: ((chunk: Uint8Array | null) => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly config: ScaleConfig,
    private readonly onUpdate: (update: ScaleUpdate) => void,
    private readonly options: { everyMs?: number; reopenMs?: number; timeoutMs?: number } = {},
  ) {}

  start() {
    this.loop ??= this.run();
  }

  async stop() {
    this.stopped = true;
    this.close();
    await this.loop;
  }

  private deliver(chunk: Uint8Array | null) {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(chunk);
    } else if (chunk) this.chunks.push(chunk);
  }

  private close() {
    const port = this.port;
    this.port = null;
    this.chunks = [];
    this.deliver(null);
    if (port?.isOpen) port.close(() => {});
  }

  private open(): Promise<SerialPort> {
    return new Promise((resolve, reject) => {
      const port = new SerialPort(
        {
          path: this.config.path,
          baudRate: this.config.baudRate ?? SCALE_SERIAL_DEFAULTS.baudRate,
          dataBits: SCALE_SERIAL_DEFAULTS.dataBits,
          parity: SCALE_SERIAL_DEFAULTS.parity,
          stopBits: SCALE_SERIAL_DEFAULTS.stopBits,
        },
        (error) => (error ? reject(error) : resolve(port)),
      );
      port.on('data', (chunk: Buffer) => this.deliver(new Uint8Array(chunk)));
      port.on('close', () => {
        if (this.port === port) this.close();
      });
      port.on('error', () => {
        if (this.port === port) this.close();
      });
    });
  }

  private readonly transport: ScaleTransport = {
    write: (bytes) =>
      new Promise((resolve, reject) => {
        const port = this.port;
        if (!port) return reject(new Error('A porta da balança foi fechada'));
        port.write(Buffer.from(bytes), (error) => (error ? reject(error) : resolve()));
      }),
    read: () =>
      new Promise((resolve) => {
        const next = this.chunks.shift();
        if (next) resolve(next);
        else if (!this.port) resolve(null);
        else this.waiting = resolve;
      }),
  };

  private async run() {
    const every = this.options.everyMs ?? 300;
    while (!this.stopped) {
      if (!this.port) {
        try {
          this.port = await this.open();
          if (this.stopped) this.close();
        } catch (error) {
          this.onUpdate({
            reading: null,
            error: `Não foi possível abrir a porta da balança ${this.config.path}: ${(error as Error).message}`,
          });
          await sleep(this.options.reopenMs ?? 3_000);
          continue;
        }
      }
      try {
        // An answer left over from a question that timed out is not this question's answer.
        this.chunks = [];
        const reading = await readWeight(
          this.transport,
          this.config.protocol,
          this.options.timeoutMs ?? 1000,
        );
        this.onUpdate({ reading, error: '' });
      } catch (error) {
        if (this.stopped) break;
        this.onUpdate({ reading: null, error: (error as Error).message });
      }
      await sleep(every);
    }
  }
}
