import { open } from 'node:fs/promises';
import type { PrinterState } from '@balcao/core/printAgent';
import type { Output } from './index.ts';
import { PrinterUnavailable } from './status.ts';

/**
 * A USB printer through the OS device (Linux /dev/usb/lp0, the usblp driver) or any file: the bytes
 * are written and the device closed. The kernel's write returns once the printer took the data; the
 * real-time status is not read back here (answered `unknown`).
 */
export function fileOutput(url: string, path: string): Output {
  return {
    url,
    async status(): Promise<PrinterState> {
      return 'unknown';
    },
    async write(bytes: Uint8Array): Promise<void> {
      let handle: Awaited<ReturnType<typeof open>> | undefined;
      try {
        handle = await open(path, 'a');
        await handle.write(bytes);
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
