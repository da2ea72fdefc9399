import type { PrinterState } from '@balcao/core/printAgent';

/**
 * ESC/POS real-time status (DLE EOT n, answered even while the printer is stopped): the three
 * requests the agent sends before a job, and what their one-byte answers mean (ESC/POS command
 * reference). Every answer has bit 1 and bit 4 set and bits 0 and 7 clear (`& 0x93 === 0x12`).
 */
export const STATUS_REQUESTS = Uint8Array.from([0x10, 0x04, 0x01, 0x10, 0x04, 0x02, 0x10, 0x04, 0x04]);

const valid = (b: number | undefined) => b !== undefined && (b & 0x93) === 0x12;

/** [printer (n=1), offline cause (n=2), roll paper sensor (n=4)] -> the state the agent reports. */
export function stateOfStatus(answer: readonly number[]): PrinterState {
  const [printer, cause, paper] = answer;
  if (!valid(printer) || !valid(cause) || !valid(paper)) return 'unknown';
  if ((paper & 0x60) !== 0 || (cause & 0x20) !== 0) return 'paper_out';
  if ((cause & 0x04) !== 0) return 'cover_open';
  if ((cause & 0x40) !== 0) return 'error';
  if ((printer & 0x08) !== 0) return 'offline';
  return 'ok';
}

/** A state in which the printer will not print now: the job stays queued at the agent. */
export const stopsPrinting = (state: PrinterState) =>
  state === 'paper_out' || state === 'cover_open' || state === 'offline' || state === 'error';

/** What an output reports when it cannot take bytes now (no connection, device busy, queue refused). */
export class PrinterUnavailable extends Error {
  constructor(
    readonly state: PrinterState,
    message: string,
  ) {
    super(message);
  }
}
