import { spawn } from 'node:child_process';
import type { PrinterState } from '@balcao/core/printAgent';
import type { Output } from './index.ts';
import { PrinterUnavailable } from './status.ts';

/**
 * A printer behind the OS print queue (CUPS, also on macOS): `lp -d QUEUE -o raw`, the bytes on its
 * standard input, passed untouched to the printer. Accepted = `lp` exited 0 (the queue holds the job).
 */
/** `lp`: the command (another path, or a test's stand-in; BALCAO_LP in the environment). */
export function cupsOutput(url: string, queue: string, lp = process.env.BALCAO_LP ?? 'lp'): Output {
  return {
    url,
    async status(): Promise<PrinterState> {
      return 'unknown';
    },
    write(bytes: Uint8Array): Promise<void> {
      return new Promise((resolve, reject) => {
        const child = spawn(lp, ['-d', queue, '-o', 'raw'], { stdio: ['pipe', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.once('error', (error) =>
          reject(new PrinterUnavailable('offline', `Não foi possível chamar o lp (${error.message})`)),
        );
        child.once('close', (code) => {
          if (code === 0) resolve();
          else
            reject(
              new PrinterUnavailable(
                'offline',
                `A fila ${queue} recusou a impressão: ${stderr.trim() || `lp saiu com ${code}`}`,
              ),
            );
        });
        child.stdin.end(bytes);
      });
    },
  };
}
