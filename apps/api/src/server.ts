import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { startCampaignWorker } from './modules/campaign/worker.ts';
import { purgeIdempotencyKeys } from './modules/sale/idempotency.ts';
import { DEMO_PASSWORD, demoLogins, isDatabaseEmpty, seedDemo } from './seed.ts';

const here = dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig();
  config.webDist ??= resolve(here, '../../web/dist');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (config.seedDemo && (await isDatabaseEmpty(database.db))) {
    await seedDemo(database.db);
    console.log('\nDemo shop created. Logins (password: %s):', DEMO_PASSWORD);
    for (const login of demoLogins()) console.log(`  ${login.type.padEnd(20)} ${login.email}`);
    console.log('');
  }
  const app = await buildApp({ db: database.db, config, logger: true });
  // Housekeeping: old Idempotency-Keys are forgotten at start and every hour.
  const purge = () =>
    purgeIdempotencyKeys(database.db).catch((error) => app.log.error(error, 'idempotency key purge failed'));
  await purge();
  const housekeeping = setInterval(purge, 3_600_000);
  housekeeping.unref();
  // The campaign sender (issue 19): the queue is in the database, so a restart resumes where it stopped.
  const campaignWorker = startCampaignWorker(app.ctx, {
    onError: (error) => app.log.error(error, 'campaign worker step failed'),
  });
  const shutdown = async () => {
    clearInterval(housekeeping);
    await campaignWorker.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  console.log(
    `Balcão on http://localhost:${config.port} (${database.kind}${database.kind === 'pglite' ? `, ${config.dataDir}` : ''})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
