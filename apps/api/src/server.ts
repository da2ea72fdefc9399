import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DatabaseNewerThanCode, migrationCount, openDatabase, withStartupLock } from './db/client.ts';
import { backgroundJobs } from './jobs.ts';
import { newInstanceId, startJobRunner } from './lib/jobs.ts';
import { type ProducedBackup, preUpgradeBackup, recordBackup } from './modules/backup/service.ts';
import { startCampaignWorker } from './modules/campaign/worker.ts';
import { DEMO_PASSWORD, demoLogins, isDatabaseEmpty, seedDemo } from './seed.ts';

const here = dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig();
  config.webDist ??= resolve(here, '../../web/dist');
  // Issue 37: a database with migrations still to run is backed up as it is before they run.
  let preUpgrade: ProducedBackup | null = null;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    beforeMigrate: async (opened) => {
      preUpgrade = await preUpgradeBackup(opened.db, config, migrationCount());
    },
  });
  if (config.seedDemo)
    await withStartupLock(database, async () => {
      if (!(await isDatabaseEmpty(database.db))) return;
      await seedDemo(database.db);
      console.log('\nDemo shop created. Logins (password: %s):', DEMO_PASSWORD);
      for (const login of demoLogins()) console.log(`  ${login.type.padEnd(20)} ${login.email}`);
      console.log('');
    });
  const app = await buildApp({
    db: database.db,
    config,
    logger: true,
    // PostgreSQL: socket events reach the sockets of every instance on the same database.
    clusterUrl: database.kind === 'postgres' ? database.url : undefined,
  });
  if (preUpgrade) {
    const backup = await recordBackup(app.ctx, preUpgrade);
    app.log.info({ backup: backup.fileName, status: backup.status }, 'backup before the upgrade');
  }
  const instanceId = config.instanceId ?? newInstanceId();
  // Periodic work (Idempotency-Key purge, print delivery sweep), once across instances (lib/jobs.ts).
  const jobs = startJobRunner(database.db, backgroundJobs(app.ctx, { leaseMs: config.jobs.leaseMs }), {
    instanceId,
    pollMs: config.jobs.pollMs,
    onError: (error, job) => app.log.error(error, `background job ${job || '(claim)'} failed`),
  });
  // The campaign sender (issue 19): the queue is in the database, so a restart resumes where it stopped.
  const campaignWorker = startCampaignWorker(app.ctx, {
    onError: (error) => app.log.error(error, 'campaign worker step failed'),
  });
  // Graceful shutdown (SIGTERM from the orchestrator, Ctrl+C): /v1/ready turns 503, no new background
  // work is claimed and the step under way ends (its leases given back), sockets are told to reconnect
  // elsewhere, no new connections are accepted and the requests in flight finish; then the database
  // closes. A second signal, or SHUTDOWN_TIMEOUT_MS, ends the process at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info({ signal, instanceId }, 'shutting down: finishing the work in flight');
    setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app.ctx.lifecycle.draining = true;
    await Promise.allSettled([jobs.stop(), campaignWorker.stop()]);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  console.log(
    `Balcão on http://localhost:${config.port} (${database.kind}${database.kind === 'pglite' ? `, ${config.dataDir}` : ''}, instance ${instanceId})`,
  );
}

main().catch((error) => {
  // A database newer than the code: the message says what to do; a stack trace would hide it.
  if (error instanceof DatabaseNewerThanCode) {
    console.error(`\nBalcão não iniciou. ${error.message}\n`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
