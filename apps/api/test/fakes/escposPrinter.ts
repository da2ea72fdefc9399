import { createServer, type Socket } from 'node:net';

/**
 * A fake network thermal printer (raw TCP, port 9100 on a real one) for the print agent's tests
 * (issue 36). It records the bytes of each job connection and answers the ESC/POS real-time status
 * requests (DLE EOT 1, 2, 4) the way an Epson-compatible printer does: one byte each, bits 1 and 4
 * set. Its paper, cover and silence are the test's to set. `decodeEscpos` reads recorded bytes back
 * as text and commands, written from the ESC/POS command reference, not from the encoder's code.
 */

export type FakePrinterCondition = 'ok' | 'paper_out' | 'cover_open' | 'silent';

/** DLE EOT 1, 2, 4 answers: printer, offline cause, roll paper sensor. */
export const STATUS_ANSWERS: Record<Exclude<FakePrinterCondition, 'silent'>, [number, number, number]> = {
  ok: [0x12, 0x12, 0x12],
  // Offline (1: bit 3), stopped by paper end (2: bit 5), paper near end and end (4: bits 2-3, 5-6).
  paper_out: [0x1a, 0x32, 0x7e],
  // Offline (1: bit 3), cover open (2: bit 2).
  cover_open: [0x1a, 0x16, 0x12],
};

export type FakePrinter = {
  port: number;
  /** The bytes of each connection that carried more than status requests, in arrival order. */
  jobs: Buffer[];
  /** How many status requests (DLE EOT) were answered or ignored. */
  statusRequests: number;
  /** How many connections were opened (status only or with a job). */
  connections: number;
  condition: FakePrinterCondition;
  /** Resolves once `count` jobs arrived (rejects after `timeoutMs`). */
  waitForJobs(count: number, timeoutMs?: number): Promise<Buffer[]>;
  close(): Promise<void>;
};

export async function startFakePrinter(port = 0): Promise<FakePrinter> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const printer: FakePrinter = {
    port: 0,
    jobs: [],
    statusRequests: 0,
    connections: 0,
    condition: 'ok',
    waitForJobs(count, timeoutMs = 10_000) {
      if (printer.jobs.length >= count) return Promise.resolve(printer.jobs);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fake printer: ${printer.jobs.length} of ${count} jobs`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(printer.jobs);
          },
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    printer.connections++;
    const chunks: Buffer[] = [];
    let leading = true;
    socket.on('data', (chunk: Buffer) => {
      let data = chunk;
      // Status requests lead a connection (the agent asks before it sends a job).
      while (leading && data.length >= 3 && data[0] === 0x10 && data[1] === 0x04) {
        const n = data[2];
        printer.statusRequests++;
        if (printer.condition !== 'silent') {
          const answers: readonly number[] = STATUS_ANSWERS[printer.condition];
          const index = [1, 2, 4].indexOf(n);
          if (index >= 0) socket.write(Buffer.from([answers[index]]));
        }
        data = data.subarray(3);
      }
      if (data.length > 0) {
        leading = false;
        chunks.push(data);
      }
    });
    socket.on('end', () => {
      socket.end();
      if (chunks.length === 0) return;
      printer.jobs.push(Buffer.concat(chunks));
      for (const w of [...waiters])
        if (printer.jobs.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  printer.port = (server.address() as { port: number }).port;
  const close = printer.close;
  printer.close = async () => {
    for (const s of sockets) s.destroy();
    await close();
  };
  return printer;
}

/** IBM code page 860 (Portuguese), 0x80-0xA7: the letters a Brazilian receipt uses. */
const CP860_HIGH = 'ÇüéâãàÁçêÊèÍÔìÃÂÉÀÈôõòÚùÌÕÜ¢£Ù₧ÓáíóúñÑªº';
/** ESC t n of Epson's table: 2 = PC850, 3 = PC860, 16 = WPC1252. */
const EPSON_PAGES: Record<number, string> = { 0: 'PC437', 2: 'PC850', 3: 'PC860', 16: 'WPC1252' };

function decodeByte(byte: number, page: string): string {
  if (byte < 0x80) return String.fromCharCode(byte);
  if (page === 'PC860' && byte - 0x80 < CP860_HIGH.length) return CP860_HIGH[byte - 0x80];
  if (page === 'WPC1252') return new TextDecoder('windows-1252').decode(Uint8Array.of(byte));
  return '?';
}

export type DecodedEscpos = {
  /** The printed lines, each with the style it started in. */
  lines: { text: string; bold: boolean; doubleHeight: boolean; doubleWidth: boolean }[];
  /** The code pages selected (ESC t), by Epson's names. */
  codePages: string[];
  cuts: number;
  /** The data of each QR code stored and printed (GS ( k). */
  qrCodes: string[];
  /** Raster images (GS v 0). */
  images: number;
  /** Each raster image: its size in dots and the share of its dots printed black (0..1). */
  rasters: { width: number; height: number; black: number }[];
  /** Drawer kick pulses (ESC p). */
  pulses: number;
  initialized: boolean;
};

/** Reads ESC/POS bytes back as lines of text and the commands among them. */
export function decodeEscpos(bytes: Uint8Array): DecodedEscpos {
  const out: DecodedEscpos = {
    lines: [],
    codePages: [],
    cuts: 0,
    qrCodes: [],
    images: 0,
    rasters: [],
    pulses: 0,
    initialized: false,
  };
  let page = 'PC437';
  let bold = false;
  let size = 0;
  let current = '';
  let currentStyle = { bold, doubleHeight: false, doubleWidth: false };
  const styleNow = () => ({ bold, doubleHeight: (size & 0x0f) > 0, doubleWidth: (size & 0xf0) > 0 });
  const flush = () => {
    out.lines.push({ text: current, ...currentStyle });
    current = '';
  };
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === 0x1b) {
      const c = String.fromCharCode(bytes[i + 1]);
      if (c === '@') {
        out.initialized = true;
        bold = false;
        size = 0;
        i += 2;
      } else if (c === 't') {
        page = EPSON_PAGES[bytes[i + 2]] ?? `ESC t ${bytes[i + 2]}`;
        out.codePages.push(page);
        i += 3;
      } else if (c === 'E') {
        bold = bytes[i + 2] === 1;
        i += 3;
      } else if (c === 'p') {
        out.pulses++;
        i += 5;
      } else if (c === '!') {
        size = ((bytes[i + 2] & 0x20) !== 0 ? 0x10 : 0) | ((bytes[i + 2] & 0x10) !== 0 ? 0x01 : 0);
        bold = (bytes[i + 2] & 0x08) !== 0;
        i += 3;
      } else if (c === '2') i += 2;
      else i += 3; // ESC a n, ESC M n, ESC - n, ESC G n, ESC 3 n, ESC d n, ESC J n, ESC R n
    } else if (b === 0x1d) {
      const c = String.fromCharCode(bytes[i + 1]);
      if (c === '!') {
        size = bytes[i + 2];
        i += 3;
      } else if (c === 'V') {
        out.cuts++;
        i += bytes[i + 2] >= 65 ? 4 : 3;
      } else if (c === '(') {
        // GS ( k pL pH cn fn [data]: fn 80 (0x50) stores the QR data, fn 81 prints it.
        const length = bytes[i + 3] + bytes[i + 4] * 256;
        const cn = bytes[i + 5];
        const fn = bytes[i + 6];
        if (String.fromCharCode(bytes[i + 2]) === 'k' && cn === 0x31 && fn === 0x50)
          out.qrCodes.push(Buffer.from(bytes.subarray(i + 8, i + 5 + length)).toString('latin1'));
        i += 5 + length;
      } else if (c === 'v') {
        // GS v 0 m xL xH yL yH d1...dk: k = (xL + xH*256) * (yL + yH*256)
        const width = bytes[i + 4] + bytes[i + 5] * 256;
        const height = bytes[i + 6] + bytes[i + 7] * 256;
        out.images++;
        let black = 0;
        for (const byte of bytes.subarray(i + 8, i + 8 + width * height))
          for (let bit = 0; bit < 8; bit++) black += (byte >> bit) & 1;
        out.rasters.push({ width: width * 8, height, black: black / (width * 8 * height) });
        i += 8 + width * height;
      } else if (c === 'L' || c === 'W') i += 4;
      else i += 3; // GS B n, GS h n, GS w n, GS H n, GS f n
    } else if (b === 0x1c) {
      i += bytes[i + 1] === 0x2e || bytes[i + 1] === 0x26 ? 2 : 3; // FS . / FS & (Kanji off/on)
    } else if (b === 0x0a) {
      flush();
      i++;
    } else if (b === 0x0d) {
      i++;
    } else {
      if (current === '') currentStyle = styleNow();
      current += decodeByte(b, page);
      i++;
    }
  }
  if (current) flush();
  return out;
}

/** The printed text lines (trimmed at the right, blank ones dropped). */
export const textOf = (decoded: DecodedEscpos) =>
  decoded.lines.map((l) => l.text.trimEnd()).filter((l) => l.length > 0);
