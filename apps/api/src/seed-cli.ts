import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { isDatabaseEmpty, seedDemo } from './seed.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
if (await isDatabaseEmpty(database.db)) {
  await seedDemo(database.db);
  console.log('demo shop seeded');
} else console.log('database not empty: nothing seeded');
await database.close();
