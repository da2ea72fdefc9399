import type { AppContext } from './context.ts';
import type { ScheduledJob } from './lib/jobs.ts';
import { backupTick, removeShopBackups } from './modules/backup/service.ts';
import { sweepFiscal, transmitWaiting } from './modules/fiscal/issue.ts';
import { warnExpiringCertificates } from './modules/fiscal/service.ts';
import { pollMarketplaces, sendMarketplaceStatuses } from './modules/marketplace/service.ts';
import { processReceivedPix, sendPixRefunds } from './modules/pix/service.ts';
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
      // Issue 32: a finished sale without its NFC-e (a crash between the sale's commit and the note's
      // insert) gets it; numbers that will never be authorised are voided (inutilização). Not atomic:
      // it calls SEFAZ; a repeat finds the note (unique sale_id) and the range in fiscal_voids.
      name: 'fiscal-sweep',
      everyMs: 60_000,
      leaseMs: options.leaseMs ?? 10 * 60_000,
      atomic: false,
      run: () => sweepFiscal(ctx),
    },
    {
      // Issue 32: the A1's bell from 30 days before it ends, once a day per shop (the day is recorded
      // by the claiming UPDATE). Hourly, so a day is never missed. Not atomic: it rings the bell.
      name: 'fiscal-certificate-bell',
      everyMs: 3_600_000,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      atomic: false,
      run: () => warnExpiringCertificates(ctx),
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
      run: async () => {
        const done = await purgeDueShops(ctx.db, storageFor(ctx.config));
        // The shop's own backups go with it (the backup module's, so removed here, after the purge).
        for (const clientId of done.deleted) await removeShopBackups(ctx.db, ctx.config, clientId);
        return done;
      },
    },
    {
      // The nightly backup (issue 37): checked every 15 minutes, taken at the hour set on Configurações >
      // Sistema. Not atomic: it writes a file; a repeat finds the night's backup and does nothing.
      name: 'backup-nightly',
      everyMs: 15 * 60_000,
      leaseMs: options.leaseMs ?? 30 * 60_000,
      atomic: false,
      // First the free-space check: a filling disk stops backups with a bell warning (backupTick).
      run: () => backupTick(ctx),
    },
    {
      // Marketplace orders (issue 35): iFood requires polling every 30 s, never more often (another
      // interval is "consumo indevido" and closes the store); MARKETPLACE_POLL_MS shortens it in tests
      // only. Not atomic: it calls the marketplaces; each order is stored once whatever the repeats.
      name: 'marketplace-polling',
      everyMs: ctx.config.marketplace.pollMs,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      atomic: false,
      run: () => pollMarketplaces(ctx),
    },
    {
      // Statuses back to the marketplaces, each once, retried until accepted (issue 35).
      name: 'marketplace-status',
      everyMs: ctx.config.marketplace.statusMs,
      leaseMs: options.leaseMs ?? 5 * 60_000,
      atomic: false,
      run: () => sendMarketplaceStatuses(ctx),
    },
    {
      // Issue 33: received Pix still pending (the webhook's intake works them at once; this sweeps what
      // a dead instance left). Not atomic: rows are claimed with SKIP LOCKED, each in its transaction.
      name: 'pix-received',
      everyMs: 2_000,
      leaseMs: options.leaseMs ?? 60_000,
      atomic: false,
      run: () => processReceivedPix(ctx),
    },
    {
      // Issue 33: refunds (devoluções) sent and followed until DEVOLVIDO or NAO_REALIZADO. Not atomic:
      // it calls the PSP; a repeat sends the same devolução id (PUT is idempotent by it).
      name: 'pix-refunds',
      everyMs: 10_000,
      leaseMs: options.leaseMs ?? 60_000,
      atomic: false,
      run: () => sendPixRefunds(ctx),
    },
  ];
}
