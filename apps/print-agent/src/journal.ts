import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { PrintJob } from '@balcao/core/printing';

/**
 * The agent's local journal (issue 36): one file per job, named by the API's job id, written before
 * each step and synced to disk, so a crash or a lost connection never prints a job twice or drops it.
 *   received: the job is the agent's to print;  printed: the printer accepted its bytes;
 *   acked: the API stored the result;  failed: it cannot print here (told to the API).
 * A job received again (the API hands unconfirmed jobs out again when the agent reconnects) whose
 * entry says printed is only acknowledged again, never printed again.
 */
export type JournalState = 'received' | 'printed' | 'acked' | 'failed';
export type JournalEntry = { job: PrintJob; state: JournalState; at: string };

/**
 * A state written and synced to a side file, not taken yet: `commitAsync` renames it over the entry
 * at once and answers when the folder is synced; `discard` drops it.
 */
export type Staged = { commitAsync: () => Promise<void>; discard: () => void };

/** Acknowledged entries are kept this long (a late redelivery is still recognised), then removed. */
const KEEP_MS = 7 * 24 * 3600_000;

export class Journal {
  private readonly dir: string;
  /** Disk syncs made so far: on the event loop (blocking) and in libuv's threads (background). */
  readonly syncs = { blocking: 0, background: 0 };

  constructor(root: string) {
    this.dir = join(root, 'journal');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(id: number) {
    return join(this.dir, `${id}.json`);
  }

  get(id: number): JournalEntry | null {
    try {
      return JSON.parse(readFileSync(this.file(id), 'utf8')) as JournalEntry;
    } catch {
      return null;
    }
  }

  /**
   * Writes the entry: a temporary file renamed over the old one, synced first when `durable`. Only
   * what a power cut must not lose is synced (a `failed`, a `printed` taken back to `received`); a
   * new job's `received` and an `acked` are not: lost, the API hands the unprinted job out again on
   * the next connection, and an acked job only has its (idempotent) result sent again. A sync is
   * ~7 ms of blocked event loop here, and 20 tickets at once queued three of them each behind one
   * another before the last printed (bench/kitchen-print.ts). `printed` is always synced (stage).
   */
  put(job: PrintJob, state: JournalState, durable = true): JournalEntry {
    const entry: JournalEntry = { job, state, at: new Date().toISOString() };
    const target = this.file(job.id);
    const temporary = `${target}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, JSON.stringify(entry));
      if (durable) {
        fsyncSync(fd);
        this.syncs.blocking++;
      }
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
    return entry;
  }

  /**
   * Prepares a state durably without taking it yet: the entry is written and synced to a side file
   * (in libuv's threads: the agent stages a ticket while it asks the printer's status), and the
   * returned `commitAsync` renames it over the entry at once (one syscall, no disk wait) then syncs
   * the folder. The agent stages `printed` before sending the bytes and commits the moment the last
   * byte is handed to the OS, so a crash between "the printer has it" and "the journal says so" has
   * microseconds to land in, not a connection close and a disk sync. `discard` drops the stage.
   */
  async stageAsync(job: PrintJob, state: JournalState): Promise<Staged> {
    const entry: JournalEntry = { job, state, at: new Date().toISOString() };
    const target = this.file(job.id);
    const staged = `${target}.${state}`;
    const file = await open(staged, 'w');
    try {
      await file.writeFile(JSON.stringify(entry));
      await file.sync();
      this.syncs.background++;
    } finally {
      await file.close();
    }
    return this.staged(staged, target);
  }

  private staged(staged: string, target: string): Staged {
    return {
      commitAsync: () => {
        renameSync(staged, target);
        // The rename is the kernel's at once (a killed process cannot undo it); syncing the folder
        // makes it the disk's too, so a power cut right after the printer took the bytes does not
        // bring back "received" (ext4 would otherwise write the folder up to ~5 s later). The sync
        // runs in libuv's threads while the printer reads and closes; the agent waits for both.
        return this.syncFolderAsync();
      },
      discard: () => rmSync(staged, { force: true }),
    };
  }

  private async syncFolderAsync() {
    try {
      const folder = await open(this.dir, 'r');
      try {
        await folder.sync();
        this.syncs.background++;
      } finally {
        await folder.close();
      }
    } catch {
      // A system that cannot sync a folder (Windows): the rename stays as durable as it makes it.
    }
  }

  /** Every entry, oldest job first (the order they print in after a restart). */
  all(): JournalEntry[] {
    return readdirSync(this.dir)
      .filter((f) => /^\d+\.json$/.test(f))
      .map((f) => Number(f.slice(0, -5)))
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const entry = this.get(id);
        return entry ? [entry] : [];
      });
  }

  /** Removes uncommitted stages, and acknowledged entries older than a week. */
  prune(now = Date.now()) {
    // Stages a crash left uncommitted: after a restart nothing commits them.
    for (const f of readdirSync(this.dir))
      if (/^\d+\.json\.\w+$/.test(f)) rmSync(join(this.dir, f), { force: true });
    for (const entry of this.all())
      if ((entry.state === 'acked' || entry.state === 'failed') && now - Date.parse(entry.at) > KEEP_MS)
        rmSync(this.file(entry.job.id), { force: true });
  }
}
