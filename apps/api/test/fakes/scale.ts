import { Duplex } from 'node:stream';
import {
  ENQ,
  type ScaleProtocol,
  type ScaleReading,
  type ScaleTransport,
  scaleFrame,
} from '@balcao/core/scale/serialScale';

/**
 * A counter scale on a serial line (issue 36), for the tests: it answers every ENQ with one frame of
 * its protocol (core scale/serialScale.ts, after ACBr's ACBrBAL / OpenAC.Net.Balanca) for whatever is
 * on the plate now, and ignores any other byte, as a Toledo Prix does. The line is a Node Duplex
 * (what a serial port library hands the print agent); `transport()` adapts it to core's
 * ScaleTransport. Like a real UART, an answer may arrive split in pieces (`chunkSize`).
 */
export function fakeScale(protocol: ScaleProtocol, options: { chunkSize?: number; silent?: boolean } = {}) {
  let reading: ScaleReading = { status: 'stable', grams: 0 };
  let enquiries = 0;
  const pending: Buffer[] = [];
  let waiting: ((chunk: Buffer | null) => void) | null = null;
  const deliver = (chunk: Buffer) => {
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(chunk);
    } else pending.push(chunk);
  };

  /** The PC's end of the line. */
  const line = new Duplex({
    write(chunk: Buffer, _encoding, done) {
      for (const byte of chunk) {
        if (byte !== ENQ) continue;
        enquiries++;
        if (options.silent) continue;
        const frame = Buffer.from(scaleFrame(protocol, reading));
        const size = options.chunkSize ?? frame.length;
        for (let i = 0; i < frame.length; i += size) this.push(frame.subarray(i, i + size));
      }
      done();
    },
    read() {},
  });
  line.on('data', (chunk: Buffer) => deliver(chunk));

  const transport: ScaleTransport = {
    write: (bytes) => new Promise((resolve, reject) => line.write(bytes, (e) => (e ? reject(e) : resolve()))),
    read: () =>
      new Promise((resolve) => {
        const next = pending.shift();
        if (next) resolve(next);
        else waiting = resolve;
      }),
  };

  return {
    line,
    transport,
    /** What the plate holds now. */
    put(next: ScaleReading) {
      reading = next;
    },
    get enquiries() {
      return enquiries;
    },
    close() {
      line.destroy();
      if (waiting) waiting(null);
    },
  };
}
