import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { asUser } from '../../test/kit.ts';
import { scheduledJobs } from '../db/schema.ts';
import { backgroundJobs } from '../jobs.ts';
import {
  claimDueJob,
  jobRows,
  LeaseLost,
  registerJobs,
  releaseJobs,
  runClaimedJob,
  type ScheduledJob,
} from './jobs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
/** A job that records each run in a table of its own, inside the transaction it is given. */
async function countingJob(overrides: Partial<ScheduledJob> = {}): Promise<ScheduledJob> {
  const name = `test-job-${++seq}`;
  await t.database.db.execute(sql.raw(`create table if not exists test_job_runs (job text, at timestamptz)`));
  return {
    name,
    everyMs: 60_000,
    leaseMs: 60_000,
    atomic: true,
    run: async (db) => {
      await db.execute(sql`insert into test_job_runs values (${name}, now())`);
      return { ok: true };
    },
    ...overrides,
  };
}
const runsOf = async (name: string) =>
  (
    (await t.database.db.execute(
      sql`select count(*)::int as n from test_job_runs where job = ${name}`,
    )) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0].n;
const rowOf = async (name: string) => (await jobRows(t.database.db, [name]))[0];

describe('background jobs: once across instances, taken over when an instance dies', () => {
  it('a due job is claimed by one instance only while its lease holds; finishing sets the next run', async () => {
    const job = await countingJob();
    await registerJobs(t.database.db, [job]);
    expect(await claimDueJob(t.database.db, [job], 'A')).toBe(job);
    expect(await claimDueJob(t.database.db, [job], 'B')).toBeNull();
    expect(await rowOf(job.name)).toMatchObject({ lockedBy: 'A', runs: 0 });

    expect(await runClaimedJob(t.database.db, job, 'A')).toEqual({ ok: true });
    const row = await rowOf(job.name);
    expect(row).toMatchObject({ lockedBy: null, lockedUntil: null, runs: 1, lastFinishedBy: 'A' });
    expect(row.lastResult).toEqual({ ok: true });
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await runsOf(job.name)).toBe(1);
    // Not due again before everyMs.
    expect(await claimDueJob(t.database.db, [job], 'B')).toBeNull();
  });

  it('a claim whose lease ended (its instance died) is taken over, and the old claimer cannot finish it', async () => {
    const job = await countingJob();
    await registerJobs(t.database.db, [job]);
    expect(await claimDueJob(t.database.db, [job], 'A')).toBe(job);
    // A died: its lease runs out.
    await t.database.db
      .update(scheduledJobs)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(scheduledJobs.name, job.name));
    expect(await claimDueJob(t.database.db, [job], 'B')).toBe(job);
    // A was only slow: its late run finds the lease gone and leaves nothing behind.
    await expect(runClaimedJob(t.database.db, job, 'A')).rejects.toBeInstanceOf(LeaseLost);
    expect(await runsOf(job.name)).toBe(0);
    await runClaimedJob(t.database.db, job, 'B');
    expect(await runsOf(job.name)).toBe(1);
    expect(await rowOf(job.name)).toMatchObject({ runs: 1, lastFinishedBy: 'B' });
  });

  it('a failing job is released with its error and due again soon; leases are given back at shutdown', async () => {
    const job = await countingJob({
      run: async () => {
        throw new Error('quebrou');
      },
    });
    const other = await countingJob();
    await registerJobs(t.database.db, [job, other]);
    const first = await claimDueJob(t.database.db, [job], 'A');
    await expect(runClaimedJob(t.database.db, first as ScheduledJob, 'A')).rejects.toThrow('quebrou');
    const row = await rowOf(job.name);
    expect(row).toMatchObject({ lockedBy: null, runs: 0, lastError: 'quebrou' });
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000);

    expect(await claimDueJob(t.database.db, [other], 'A')).toBe(other);
    await releaseJobs(t.database.db, 'A');
    expect(await claimDueJob(t.database.db, [other], 'B')).toBe(other);
  });

  it('the Idempotency-Key purge deletes keys older than a week, once', async () => {
    const { client } = await asUser(t);
    await t.database.db.execute(sql`insert into sale_idempotency_keys (client_id, key, request_hash, created_at) values
      (${client.id}, 'velha-1', 'h', now() - interval '8 days'),
      (${client.id}, 'velha-2', 'h', now() - interval '30 days'),
      (${client.id}, 'nova', 'h', now() - interval '6 days')`);
    const [purge] = backgroundJobs(t.app.ctx).filter((job) => job.name === 'idempotency-key-purge');
    await registerJobs(t.database.db, [purge]);
    await t.database.db
      .update(scheduledJobs)
      .set({ runAt: new Date(0) })
      .where(eq(scheduledJobs.name, purge.name));
    expect(await claimDueJob(t.database.db, [purge], 'A')).toBe(purge);
    expect(await runClaimedJob(t.database.db, purge, 'A')).toEqual({ purged: 2 });
    const keys = (await t.database.db.execute(
      sql`select key from sale_idempotency_keys where client_id = ${client.id}`,
    )) as unknown as { rows: { key: string }[] };
    expect(keys.rows.map((r) => r.key)).toEqual(['nova']);
  });
});
