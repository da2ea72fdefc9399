import { closeSync, constants, openSync, readSync, statSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { PrinterState } from '@balcao/core/printAgent';
import type { Output } from './index.ts';
import { PrinterUnavailable, STATUS_REQUESTS, stateOfStatus } from './status.ts';

/** How long a USB printer has to answer the status (an ESC/POS printer answers in a few ms). */
const STATUS_WAIT_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A USB printer through the OS device (Linux /dev/usb/lp0, the usblp driver) or any file: the bytes
 * are written and the device closed. The kernel's write returns once the printer took the data.
 * Status, where the OS tells it: the device node disappears when the printer is switched off or
 * unplugged (offline); a character device is asked the ESC/POS real-time status (DLE EOT), which
 * usblp carries both ways for a bidirectional printer and a serial port carries as it is; no answer
 * (a write-only device, a plain file) is `unknown`.
 */
export function fileOutput(url: string, path: string): Output {
  /** Device paths the printer never answered: not asked again before every job. */
  let silent = false;
  return {
    url,
    async status(): Promise<PrinterState> {
      let isDevice: boolean;
      try {
        isDevice = statSync(path).isCharacterDevice();
      } catch {
        return 'offline';
      }
      if (!isDevice || silent) return 'unknown';
      let fd: number;
      try {
        fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOCTTY);
      } catch {
        return 'unknown';
      }
      try {
        writeSync(fd, STATUS_REQUESTS);
        const answer: number[] = [];
        const buffer = Buffer.alloc(16);
        const end = Date.now() + STATUS_WAIT_MS;
        while (answer.length < 3 && Date.now() < end) {
          let read = 0;
          try {
            read = readSync(fd, buffer, 0, buffer.length, null);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') break;
          }
          if (read > 0) answer.push(...buffer.subarray(0, read));
          else await sleep(10);
        }
        if (answer.length < 3) {
          silent = true;
          return 'unknown';
        }
        return stateOfStatus(answer.slice(0, 3));
      } catch {
        return 'unknown';
      } finally {
        closeSync(fd);
      }
    },
    async write(bytes: Uint8Array, handedOver?: () => void): Promise<void> {
      let handle: Awaited<ReturnType<typeof open>> | undefined;
      try {
        handle = await open(path, 'a');
        await handle.write(bytes);
        handedOver?.();
        await handle.sync().catch(() => {});
      } catch (error) {
        throw new PrinterUnavailable(
          'offline',
          `Não foi possível escrever em ${path} (${(error as Error).message})`,
        );
      } finally {
        await handle?.close();
      }
    },
  };
}
