import { hostname } from 'node:os';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import { scheduledJobs } from '../db/schema.ts';

/**
 * Periodic background work that runs ONCE across every API instance sharing the database, and that
 * survives an instance dying mid-job (docs/architecture.md, "Background jobs").
 *
 * Each job is a row of `scheduled_jobs`. An instance claims a due job with one UPDATE whose row is
 * picked `FOR UPDATE SKIP LOCKED`, setting `locked_by` (itself) and a lease (`locked_until`); no other
 * instance claims it until the lease ends. Then:
 * - an `atomic` job runs inside the transaction that finishes it: that transaction first locks the
 *   job row again and checks that the lease is still this instance's, then runs the work on the
 *   transaction and writes the next `run_at`. The work and the finish commit together or not at all:
 *   an instance that dies mid-job leaves nothing behind, its lease ends, and another instance runs
 *   the job; an instance too slow for its lease finds the lease gone and rolls back. Exactly once.
 * - a non-atomic job (its work talks to sockets, or is made of its own atomic claims, such as handing
 *   print jobs to stations) runs between claim and finish on the database: if the instance dies, the
 *   lease ends and another instance runs it again, so its work must be safe to repeat.
 */

export type ScheduledJob = {
  /** The row's key; stable across releases. */
  name: string;
  /** Time between the end of one run and the next one being due. */
  everyMs: number;
  /** How long a claim holds before another instance may take the job over. */
  leaseMs: number;
  /** Runs inside the finishing transaction (exactly once) rather than before it (safe to repeat). */
  atomic: boolean;
  /** The work; its answer (JSON) is kept in `last_result`. `db` is the transaction for atomic jobs. */
  run: (db: Executor) => Promise<unknown>;
};

/** Who claims: host, process and a random part (a restarted process is another claimer). */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export class LeaseLost extends Error {
  constructor(name: string) {
    super(`job ${name}: the lease was taken over by another instance`);
  }
}

/** Makes sure every job has its row (due now the first time). */
export async function registerJobs(db: Db, jobs: readonly ScheduledJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await db
    .insert(scheduledJobs)
    .values(jobs.map((job) => ({ name: job.name })))
    .onConflictDoNothing();
}

/** Claims the most overdue job of `jobs` that nobody holds; null when none is due. */
export async function claimDueJob(
  db: Db,
  jobs: readonly ScheduledJob[],
  instanceId: string,
): Promise<ScheduledJob | null> {
  if (jobs.length === 0) return null;
  const names = jobs.map((job) => job.name);
  const leases = sql.join(
    jobs.map((job) => sql`when ${job.name} then ${`${job.leaseMs} milliseconds`}::interval`),
    sql` `,
  );
  const result = (await db.execute(sql`
    update scheduled_jobs set
      locked_by = ${instanceId},
      locked_until = now() + (case name ${leases} end),
      last_started_at = now()
    where name = (
      select name from scheduled_jobs
      where name in (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})
        and run_at <= now()
        and (locked_until is null or locked_until < now())
      order by run_at
      limit 1
      for update skip locked)
    returning name`)) as unknown as { rows: { name: string }[] };
  const name = result.rows[0]?.name;
  return jobs.find((job) => job.name === name) ?? null;
}

const nextRun = (job: ScheduledJob) => sql`now() + ${`${job.everyMs} milliseconds`}::interval`;

/** Runs a claimed job and records its end (see the file's comment for atomic and non-atomic). */
export async function runClaimedJob(db: Db, job: ScheduledJob, instanceId: string): Promise<unknown> {
  const finish = async (tx: Executor, result: unknown) => {
    await tx
      .update(scheduledJobs)
      .set({
        lockedBy: null,
        lockedUntil: null,
        runAt: nextRun(job),
        runs: sql`${scheduledJobs.runs} + 1`,
        lastFinishedAt: sql`now()`,
        lastFinishedBy: instanceId,
        lastResult: result ?? null,
        lastError: null,
      })
      .where(eq(scheduledJobs.name, job.name));
  };
  const fence = async (tx: Executor) => {
    const held = await tx
      .select({ name: scheduledJobs.name })
      .from(scheduledJobs)
      .where(sql`${scheduledJobs.name} = ${job.name} and ${scheduledJobs.lockedBy} = ${instanceId}`)
      .for('update');
    if (held.length === 0) throw new LeaseLost(job.name);
  };
  try {
    if (job.atomic) {
      return await db.transaction(async (tx) => {
        await fence(tx);
        const result = await job.run(tx);
        await finish(tx, result);
        return result;
      });
    }
    const result = await job.run(db);
    await db.transaction(async (tx) => {
      await fence(tx);
      await finish(tx, result);
    });
    return result;
  } catch (error) {
    if (!(error instanceof LeaseLost)) {
      // Failed: released, due again after a short pause (the next run is the retry).
      await db
        .update(scheduledJobs)
        .set({
          lockedBy: null,
          lockedUntil: null,
          runAt: sql`now() + interval '30 seconds'`,
          lastError: String((error as Error)?.message ?? error).slice(0, 2000),
        })
        .where(sql`${scheduledJobs.name} = ${job.name} and ${scheduledJobs.lockedBy} = ${instanceId}`);
    }
    throw error;
  }
}

/** Gives back every lease this instance holds (graceful shutdown: others may run them at once). */
export async function releaseJobs(db: Db, instanceId: string): Promise<void> {
  await db
    .update(scheduledJobs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(eq(scheduledJobs.lockedBy, instanceId));
}

/** The state of some jobs (tests, diagnostics). */
export function jobRows(db: Executor, names: string[]) {
  return db.select().from(scheduledJobs).where(inArray(scheduledJobs.name, names));
}

/**
 * The loop of one instance: every `pollMs`, claim a due job and run it; one at a time. `stop` stops
 * claiming, waits for the job under way and releases this instance's leases.
 */
export function startJobRunner(
  db: Db,
  jobs: readonly ScheduledJob[],
  options: { instanceId: string; pollMs: number; onError?: (error: unknown, job: string) => void },
) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const ready = registerJobs(db, jobs);

  const step = async () => {
    let again = false;
    let current = '';
    try {
      await ready;
      const job = stopped ? null : await claimDueJob(db, jobs, options.instanceId);
      if (job) {
        current = job.name;
        await runClaimedJob(db, job, options.instanceId);
        again = true;
      }
    } catch (error) {
      options.onError?.(error, current);
    }
    if (!stopped) timer = setTimeout(() => (running = step()), again ? 0 : options.pollMs);
  };
  timer = setTimeout(() => (running = step()), 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await releaseJobs(db, options.instanceId).catch(() => {});
    },
  };
}
