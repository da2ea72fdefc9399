/**
 * Serial scales (issue 36): the Toledo (Prix 3/4, 9091...) and Filizola protocols Brazilian PDVs read
 * a counter scale with, as described by ACBr's ACBrBAL and its .NET port OpenAC.Net.Balanca
 * (ProtocoloToledo.cs, ProtocoloFilizola.cs, ProtocoloBase.cs):
 *
 * - the PDV sends ENQ (0x05); the scale answers one frame STX (0x02) + 5 characters + ETX (0x03);
 * - the 5 characters are the weight in grams ("00347" = 0,347 kg), or a state: Toledo repeats one
 *   letter ("IIIII" unstable, "NNNNN" negative, "SSSSS" overload); Filizola puts the letter first
 *   ("I", "N" or "S" then anything);
 * - 9600 baud, 8 data bits, no parity, 1 stop bit by default (configurable on the scale).
 *
 * Pure code without I/O: the print agent (Node serial port) and the browser (Web Serial) hand a
 * `ScaleTransport` over; `readWeight` asks and waits for the answer.
 */

export const ENQ = 0x05;
export const STX = 0x02;
export const ETX = 0x03;

export const SCALE_PROTOCOLS = ['toledo', 'filizola'] as const;
export type ScaleProtocol = (typeof SCALE_PROTOCOLS)[number];
export const SCALE_PROTOCOL_LABELS: Record<ScaleProtocol, string> = {
  toledo: 'Toledo (Prix)',
  filizola: 'Filizola',
};

/** The serial settings both protocols use out of the box. */
export const SCALE_SERIAL_DEFAULTS = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 } as const;

export type ScaleReading =
  | { status: 'stable'; grams: number }
  | { status: 'unstable' }
  | { status: 'negative' }
  | { status: 'overload' };

export const SCALE_STATUS_TEXT: Record<ScaleReading['status'], string> = {
  stable: 'Peso estável',
  unstable: 'Peso instável: aguarde a balança parar',
  negative: 'Peso negativo: confira a tara da balança',
  overload: 'Sobrecarga: peso acima da capacidade da balança',
};

export class ScaleFrameError extends Error {}

/** The 5 characters of a Toledo answer (between STX and ETX). */
export function parseToledo(payload: string): ScaleReading {
  if (payload === 'IIIII') return { status: 'unstable' };
  if (payload === 'NNNNN') return { status: 'negative' };
  if (payload === 'SSSSS') return { status: 'overload' };
  if (!/^\d{5}$/.test(payload)) throw new ScaleFrameError(`Resposta da balança inválida: "${payload}"`);
  return { status: 'stable', grams: Number(payload) };
}

/** The 5 characters of a Filizola answer: a state letter first, or the weight in grams. */
export function parseFilizola(payload: string): ScaleReading {
  const state = payload[0];
  if (state === 'I') return { status: 'unstable' };
  if (state === 'N') return { status: 'negative' };
  if (state === 'S') return { status: 'overload' };
  if (!/^\d{5}$/.test(payload)) throw new ScaleFrameError(`Resposta da balança inválida: "${payload}"`);
  return { status: 'stable', grams: Number(payload) };
}

export const parseScalePayload = (protocol: ScaleProtocol, payload: string): ScaleReading =>
  protocol === 'toledo' ? parseToledo(payload) : parseFilizola(payload);

/** A frame as the scale sends it (the emulator and the tests). */
export function scaleFrame(protocol: ScaleProtocol, reading: ScaleReading): Uint8Array {
  let payload: string;
  if (reading.status === 'stable') payload = String(reading.grams).padStart(5, '0');
  else {
    const letter = reading.status === 'unstable' ? 'I' : reading.status === 'negative' ? 'N' : 'S';
    payload = protocol === 'toledo' ? letter.repeat(5) : `${letter}0000`;
  }
  if (payload.length !== 5) throw new Error('weight out of range');
  return Uint8Array.from([STX, ...Array.from(payload, (c) => c.charCodeAt(0)), ETX]);
}

/**
 * Collects the bytes a serial port delivers in pieces and hands out whole frames' payloads (the
 * characters between STX and ETX). Bytes before an STX are dropped (a half frame after connecting).
 */
export class ScaleFrameReader {
  private buffer: number[] = [];
  private inFrame = false;

  push(chunk: Uint8Array): string[] {
    const frames: string[] = [];
    for (const byte of chunk) {
      if (byte === STX) {
        this.inFrame = true;
        this.buffer = [];
      } else if (byte === ETX && this.inFrame) {
        frames.push(String.fromCharCode(...this.buffer));
        this.inFrame = false;
        this.buffer = [];
      } else if (this.inFrame) {
        this.buffer.push(byte);
        if (this.buffer.length > 32) this.inFrame = false; // noise, not a frame
      }
    }
    return frames;
  }
}

/**
 * A byte channel to the scale: Web Serial's writer and reader, or the agent's serial port. `read`
 * resolves with the next bytes, or null when the port closed.
 */
export type ScaleTransport = {
  write(bytes: Uint8Array): Promise<void>;
  read(): Promise<Uint8Array | null>;
};

export const SCALE_TIMEOUT_MESSAGE = 'A balança não respondeu: confira o cabo, a porta e a velocidade (9600)';

/**
 * Asks the scale for its weight (ENQ) and waits for one frame, up to `timeoutMs`. Throws a
 * ScaleFrameError with the Portuguese reason on a timeout, a closed port or a garbled answer.
 */
export async function readWeight(
  transport: ScaleTransport,
  protocol: ScaleProtocol,
  timeoutMs = 1000,
): Promise<ScaleReading> {
  const reader = new ScaleFrameReader();
  await transport.write(Uint8Array.of(ENQ));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ScaleFrameError(SCALE_TIMEOUT_MESSAGE)), timeoutMs);
  });
  const answer = (async () => {
    for (;;) {
      const chunk = await transport.read();
      if (chunk === null) throw new ScaleFrameError('A porta da balança foi fechada');
      const [frame] = reader.push(chunk);
      if (frame !== undefined) return parseScalePayload(protocol, frame);
    }
  })();
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** "0,347 kg" */
export function formatGrams(grams: number): string {
  return `${(grams / 1000).toFixed(3).replace('.', ',')} kg`;
}

/**
 * What a kg product added at the PDV takes from the scale: the stable weight (kg), or why nothing
 * is added. An unstable, negative, overloaded or empty plate never makes a line.
 */
export function quantityFromScale(
  reading: ScaleReading | null,
  productName: string,
): { quantity: number } | { message: string } {
  if (reading?.status === 'stable' && reading.grams > 0) return { quantity: reading.grams / 1000 };
  if (reading && reading.status !== 'stable')
    return { message: `${productName}: ${SCALE_STATUS_TEXT[reading.status]}` };
  return { message: `${productName}: coloque o produto na balança` };
}
