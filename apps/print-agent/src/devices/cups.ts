import { execFile, spawn } from 'node:child_process';
import type { PrinterState } from '@balcao/core/printAgent';
import type { Output } from './index.ts';
import { PrinterUnavailable } from './status.ts';

/**
 * A printer behind the OS print queue (CUPS, also on macOS): `lp -d QUEUE -o raw`, the bytes on its
 * standard input, passed untouched to the printer. Accepted = `lp` exited 0 (the queue holds the job).
 */
/**
 * The queue's state from `lpstat -l -p QUEUE` (CUPS systemv/lpstat.c, in the C locale): the first
 * line says idle / now printing / "disabled since" (a stopped queue: CUPS keeps the jobs, nothing
 * prints), and "\tAlerts: a b c" lists the printer-state-reasons keywords (RFC 8011, with the
 * -report/-warning/-error suffixes; the backends set offline-report when the printer does not answer).
 * A -warning or -report (but offline-report) does not stop the printer. No answer: unknown.
 */
export function stateOfLpstat(text: string): { state: PrinterState; reasons: string[] } {
  const first = text.split('\n')[0] ?? '';
  const alerts = /^\tAlerts:(.*)$/m.exec(text)?.[1].trim().split(/\s+/).filter(Boolean) ?? [];
  const reasons = alerts.filter((r) => r !== 'none');
  const stopping = reasons
    .filter((r) => r === 'offline-report' || !/-(warning|report)$/.test(r))
    .map((r) => r.replace(/-(warning|report|error)$/, ''));
  if (!/^printer \S+ /.test(first)) return { state: 'unknown', reasons };
  if (stopping.some((r) => r === 'media-empty' || r === 'media-needed'))
    return { state: 'paper_out', reasons };
  if (stopping.some((r) => r === 'cover-open' || r === 'door-open')) return { state: 'cover_open', reasons };
  if (stopping.some((r) => r === 'offline' || r === 'shutdown')) return { state: 'offline', reasons };
  if (stopping.some((r) => r === 'media-jam' || r === 'output-area-full')) return { state: 'error', reasons };
  if (/ disabled since /.test(first)) return { state: 'offline', reasons };
  return { state: 'ok', reasons };
}

/** `lp`: the command (another path, or a test's stand-in; BALCAO_LP in the environment); `lpstat` too. */
export function cupsOutput(
  url: string,
  queue: string,
  lp = process.env.BALCAO_LP ?? 'lp',
  lpstat = process.env.BALCAO_LPSTAT ?? 'lpstat',
): Output {
  return {
    url,
    status(): Promise<PrinterState> {
      return new Promise((resolve) => {
        execFile(
          lpstat,
          ['-l', '-p', queue],
          { timeout: 5_000, env: { ...process.env, LANG: 'C', LC_ALL: 'C' } },
          (error, stdout) => resolve(error ? 'unknown' : stateOfLpstat(stdout).state),
        );
      });
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
