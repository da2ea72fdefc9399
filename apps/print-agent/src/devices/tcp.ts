import { connect, type Socket } from 'node:net';
import type { PrinterState } from '@balcao/core/printAgent';
import type { Output } from './index.ts';
import { PrinterUnavailable, STATUS_REQUESTS, stateOfStatus } from './status.ts';

const CONNECT_TIMEOUT_MS = 3_000;
/** A printer that answers DLE EOT does so at once; one that does not is printed to anyway. */
const STATUS_TIMEOUT_MS = 800;
const WRITE_TIMEOUT_MS = 15_000;
/** How long the connection of a status answered "ready" waits for the job that asked it. */
const SPARE_MS = 1_000;

function open(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new PrinterUnavailable('offline', `A impressora ${host}:${port} não respondeu`));
    }, CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new PrinterUnavailable('offline', `Sem conexão com a impressora ${host}:${port} (${error.message})`),
      );
    });
  });
}

/**
 * A network printer on raw TCP (port 9100): status by DLE EOT, then the job on the same connection
 * (the status's connection is kept a moment for the write that follows it: one connection per ticket,
 * not two; ESC/POS printers take the job's bytes after the real-time requests as any others).
 */
export function tcpOutput(url: string, host: string, port: number): Output {
  // A printer that never answered the status is not asked again before every job (it would only
  // delay each ticket by the wait): only its connection tells whether it is there.
  let answersStatus: boolean | undefined;
  /** The connection of the last status that allows printing, for the next write (closed after SPARE_MS). */
  let spare: { socket: Socket; timer: ReturnType<typeof setTimeout> } | null = null;
  const keep = (socket: Socket) => {
    socket.removeAllListeners('data');
    socket.removeAllListeners('close');
    // A printer that hangs up meanwhile: the write opens a connection of its own.
    socket.once('close', () => {
      if (spare?.socket === socket) {
        clearTimeout(spare.timer);
        spare = null;
      }
    });
    socket.on('error', () => {});
    spare = { socket, timer: setTimeout(() => socket.destroy(), SPARE_MS) };
  };
  const takeSpare = (): Socket | null => {
    const taken = spare;
    spare = null;
    if (!taken) return null;
    clearTimeout(taken.timer);
    taken.socket.removeAllListeners('close');
    taken.socket.removeAllListeners('error');
    if (taken.socket.destroyed || !taken.socket.writable) {
      taken.socket.destroy();
      return null;
    }
    return taken.socket;
  };
  return {
    url,
    async status(beforeJob = false): Promise<PrinterState> {
      takeSpare()?.destroy();
      const socket = await open(host, port);
      if (answersStatus === false) {
        if (beforeJob) keep(socket);
        else socket.destroy();
        return 'unknown';
      }
      let state: PrinterState = 'unknown';
      try {
        const answer: number[] = [];
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STATUS_TIMEOUT_MS);
          socket.on('data', (chunk: Buffer) => {
            answer.push(...chunk);
            if (answer.length >= 3) {
              clearTimeout(timer);
              resolve();
            }
          });
          socket.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          socket.write(STATUS_REQUESTS);
        });
        state = stateOfStatus(answer);
        answersStatus = state !== 'unknown';
        return state;
      } finally {
        // Kept only when the answer is complete and says it can print (a late answer would be read as
        // the job's); otherwise closed.
        if (beforeJob && state === 'ok' && !socket.destroyed) keep(socket);
        else socket.destroy();
      }
    },
    async write(bytes: Uint8Array, handedOver?: () => void): Promise<void> {
      const socket = takeSpare() ?? (await open(host, port));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          socket.destroy();
          reject(
            new PrinterUnavailable('offline', `A impressora ${host}:${port} não recebeu a impressão a tempo`),
          );
        }, WRITE_TIMEOUT_MS);
        socket.once('error', (error) => {
          clearTimeout(timer);
          reject(
            new PrinterUnavailable(
              'offline',
              `A impressora ${host}:${port} caiu durante a impressão (${error.message})`,
            ),
          );
        });
        // Accepted = every byte sent and the printer closed its side after ours (it read them all).
        socket.once('close', (hadError) => {
          clearTimeout(timer);
          if (!hadError) resolve();
        });
        socket.on('data', () => {});
        // 'finish': every byte is in the kernel's socket buffer, which sends it even if we die now.
        socket.end(bytes, () => handedOver?.());
      });
    },
  };
}
