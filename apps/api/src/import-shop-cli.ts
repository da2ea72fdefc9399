import { resolve } from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { ImportRefused, importShop } from './modules/shop-export/import.ts';
import { storageFor } from './modules/storage/storage.ts';

/**
 * `npm run import-shop -- FILE` (issue 37): imports a shop's "Exportar todos os dados" ZIP into this
 * Balcão (DATA_DIR's embedded database, or DATABASE_URL) as a new shop, ids remapped, files restored.
 * Refuses (exit 1, nothing written) when the shop already exists here.
 */
const file = process.argv[2];
if (!file) {
  console.error('Uso: npm run import-shop -- ARQUIVO.zip');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const result = await importShop(
    database.db,
    storageFor(config),
    resolve(process.env.INIT_CWD ?? '.', file),
  );
  const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
  for (const [table, n] of Object.entries(result.rows)) console.log(`${table}: ${n}`);
  console.log(`Loja importada como cliente ${result.clientId}: ${total} linhas, ${result.files} arquivos`);
} catch (error) {
  if (!(error instanceof ImportRefused)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.close();
}
