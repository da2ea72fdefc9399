import type { AppContext } from './context.ts';
import type { ScheduledJob } from './lib/jobs.ts';
import { nightlyBackupDue, takeBackup } from './modules/backup/service.ts';
import { transmitWaiting } from './modules/fiscal/issue.ts';
import { deliverStalePrintJobs } from './modules/printing/stations.ts';
import { purgeIdempotencyKeys } from './modules/sale/idempotency.ts';
import { refreshMelhorEnvioTokens } from './modules/shipping/tokenRefresh.ts';
import { purgeDueShops } from './modules/shop-export/deletion.ts';
import { storageFor } from './modules/storage/storage.ts';

/**
 * The periodic background work of the API, run once across every instance by lib/jobs.ts. Not here:
 * campaign sending (its own queue, claimed row by row with SKIP LOCKED in modules/campaign/worker.ts)
 * and the expiry of budgets and reservations (computed from timestamps when read: nothing to run).
 */
export function backgroundJobs(ctx: AppContext, options: { leaseMs?: number } = {}): ScheduledJob[] {
  return [
    {
      // Issue 32: contingency NFC-e, São Paulo's queue and notes a crash left pending, sent once SEFAZ
      // answers. Not atomic: it calls SEFAZ; a repeat finds the sent notes authorised (204 -> query).
      name: 'fiscal-transmit',
      everyMs: 30_000,
      leaseMs: options.leaseMs ?? 10 * 60_000,
      atomic: false,
      run: () => transmitWaiting(ctx),
    },
    {
      // Old Idempotency-Keys are forgotten every hour (docs/decisions.md, "Idempotency-Keys are kept a week").
      name: 'idempotency-key-purge',
      everyMs: 3_600_000,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      atomic: true,
      run: async (tx) => ({ purged: await purgeIdempotencyKeys(tx) }),
    },
    {
      name: 'print-delivery-sweep',
      everyMs: 15_000,
      leaseMs: options.leaseMs ?? 60_000,
      atomic: false,
      run: () => deliverStalePrintJobs(ctx),
    },
    {
      // Melhor Envio OAuth tokens refreshed before they end; a failure warns the shop (issue 31 item 16).
      // Not atomic: it calls the carrier; a repeat finds nothing due.
      name: 'melhor-envio-token-refresh',
      everyMs: 6 * 3_600_000,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      atomic: false,
      run: (db) => refreshMelhorEnvioTokens(ctx, db),
    },
    {
      // LGPD eliminação (issue 37): shops whose grace period ended are removed, rows and files.
      // Not atomic: it removes files; a repeat finds the shop gone.
      name: 'shop-deletion',
      everyMs: 3_600_000,
      leaseMs: options.leaseMs ?? 30 * 60_000,
      atomic: false,
      run: () => purgeDueShops(ctx.db, storageFor(ctx.config)),
    },
    {
      // The nightly backup (issue 37): checked every 15 minutes, taken at the hour set on Configurações >
      // Sistema. Not atomic: it writes a file; a repeat finds the night's backup and does nothing.
      name: 'backup-nightly',
      everyMs: 15 * 60_000,
      leaseMs: options.leaseMs ?? 30 * 60_000,
      atomic: false,
      run: async () =>
        (await nightlyBackupDue(ctx.db)) ? { backup: (await takeBackup(ctx, 'scheduled')).id } : null,
    },
  ];
}
