import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrintJob } from '@balcao/core/printing';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../../print-agent/src/journal.ts';

const job = (id: number) =>
  ({ id, kind: 'ticket', payload: { title: `Mesa ${id}`, lines: ['1 x Feijoada'] } }) as unknown as PrintJob;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the print agent's journal (issue 36)", () => {
  it('syncs only what a power cut must keep: one ticket costs the printed stage and its folder, not four syncs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const journal = new Journal(dir);
    // The journal's own count of its disk syncs (no module mocks: the API project shares modules).
    const syncs = () => journal.syncs.blocking + journal.syncs.background;
    const before = syncs();
    // What the agent does per ticket: received, printed (staged, committed as the bytes leave), acked.
    journal.put(job(1), 'received', false);
    const stage = await journal.stageAsync(job(1), 'printed');
    await stage.commitAsync();
    journal.put(job(1), 'acked', false);
    expect(syncs() - before).toBe(2);
    // Those two off the event loop: none blocks the agent.
    expect(journal.syncs.background).toBe(2);
    expect(journal.get(1)?.state).toBe('acked');
    // A failure, and a printed job taken back to received, are still synced.
    journal.put(job(2), 'failed');
    expect(syncs() - before).toBe(3);
    expect(new Journal(dir).all().map((e) => [e.job.id, e.state])).toEqual([
      [1, 'acked'],
      [2, 'failed'],
    ]);
  });
});
