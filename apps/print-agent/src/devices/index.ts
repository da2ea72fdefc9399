import { cupsOutput } from './cups.ts';
import { fileOutput } from './file.ts';
import { tcpOutput } from './tcp.ts';

/**
 * Where the agent's bytes go (issue 36). Each output takes the job's bytes and resolves only once the
 * printer (or the OS queue) accepted them; `status` asks the printer's real-time status where the
 * output can read an answer (raw TCP and a USB device: DLE EOT; a CUPS queue: lpstat), else answers
 * `unknown`. More devices (a serial scale, label
 * printers) are files in this folder, chosen here by their URL's scheme.
 */
export type Output = {
  /** The URL it was made from (tcp://host:9100, file:///dev/usb/lp0, cups://queue). */
  readonly url: string;
  /** `beforeJob`: a write follows at once (TCP keeps the connection for it). */
  status(beforeJob?: boolean): Promise<import('@balcao/core/printAgent').PrinterState>;
  /**
   * Sends the bytes; resolves once the printer (or the OS queue) accepted them. `handedOver`, when
   * given, is called synchronously the moment the last byte left the process (the OS delivers it
   * even if the process dies now): the agent journals "printed" right there.
   */
  write(bytes: Uint8Array, handedOver?: () => void): Promise<void>;
};

/** `lpCommand`/`lpstatCommand`: the CUPS `lp` and `lpstat` to run (default on the PATH, or BALCAO_LP/BALCAO_LPSTAT). */
export function outputFor(url: string, options: { lpCommand?: string; lpstatCommand?: string } = {}): Output {
  const parsed = new URL(url);
  if (parsed.protocol === 'tcp:') return tcpOutput(url, parsed.hostname, Number(parsed.port || 9100));
  if (parsed.protocol === 'file:') return fileOutput(url, decodeURIComponent(parsed.pathname));
  if (parsed.protocol === 'cups:')
    return cupsOutput(
      url,
      decodeURIComponent(parsed.hostname || parsed.pathname.slice(1)),
      options.lpCommand,
      options.lpstatCommand,
    );
  throw new Error(`Saída de impressora desconhecida: ${url} (use tcp://, file:// ou cups://)`);
}
