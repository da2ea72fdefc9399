import type { PrinterProfile, PrintJob, PrintJobKind } from '@balcao/core/printing';
import { PRINT_CONFIRM_SECONDS } from '@balcao/core/printing';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { printerProfiles, printJobs } from './schema.ts';

export type ProfileRow = typeof printerProfiles.$inferSelect;

/** A job as read: the job, its profile (the station sizes the page by it) and its sender's name. */
const jobColumns = {
  job: printJobs,
  profile: printerProfiles,
  createdByName: users.name,
};

type JobRow = {
  job: typeof printJobs.$inferSelect;
  profile: ProfileRow;
  createdByName: string;
};

function jobStatus(job: typeof printJobs.$inferSelect, now: number): PrintJob['status'] {
  if (job.status === 'sent' && job.sentAt && now - job.sentAt.getTime() > PRINT_CONFIRM_SECONDS * 1000)
    return 'unconfirmed';
  return job.status as PrintJob['status'];
}

export function toPrintJob(row: JobRow, now = Date.now()): PrintJob {
  const { job, profile } = row;
  return {
    id: job.id,
    kind: job.kind as PrintJobKind,
    status: jobStatus(job, now),
    payload: job.payload,
    profile: {
      id: profile.id,
      name: profile.name,
      paperWidth: profile.paperWidth as PrinterProfile['paperWidth'],
      columns: profile.columns as PrinterProfile['columns'],
      codePage: profile.codePage as PrinterProfile['codePage'],
      copies: profile.copies,
      cut: profile.cut,
    },
    sectorId: job.sectorId,
    reprintOf: job.reprintOf,
    attempts: job.attempts,
    error: job.error,
    stationName: job.stationName,
    createdBy: { id: job.createdBy, name: row.createdByName },
    createdAt: job.createdAt.toISOString(),
    sentAt: job.sentAt?.toISOString() ?? null,
    printedAt: job.printedAt?.toISOString() ?? null,
    readyAt: job.readyAt?.toISOString() ?? null,
  };
}

export function selectJobs(db: Executor) {
  return db
    .select(jobColumns)
    .from(printJobs)
    .innerJoin(printerProfiles, eq(printerProfiles.id, printJobs.profileId))
    .innerJoin(users, eq(users.id, printJobs.createdBy));
}
