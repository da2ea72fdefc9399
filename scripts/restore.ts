/**
 * `npm run restore -- FILE [--force]` (issue 37): restores a backup of the Backups page into an empty
 * data folder (DATA_DIR, ./data by default) or, with DATABASE_URL, a new PostgreSQL database. Refuses
 * to overwrite a database that has data unless --force. A shop's backup (.zip, PostgreSQL several shops
 * share) goes into any database that does not have that shop (or, with --force, replaces it there).
 * Stop the server first.
 */
import { loadConfig } from '../apps/api/src/config.ts';
import { RestoreRefused, restoreBackup } from '../apps/api/src/modules/backup/restore.ts';
import { storageFor } from '../apps/api/src/modules/storage/storage.ts';

const args = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((arg) => !arg.startsWith('--'));
if (!file) {
  console.error('Uso: npm run restore -- ARQUIVO [--force]  (DATA_DIR ou DATABASE_URL dizem o destino)');
  process.exit(2);
}
try {
  await restoreBackup({
    file,
    dataDir: process.env.DATA_DIR ?? './data',
    databaseUrl: process.env.DATABASE_URL || undefined,
    force,
    // A shop's backup (.zip) puts its files back where the server keeps them (DATA_DIR/uploads or S3).
    storage: storageFor(loadConfig()),
  });
  console.log('Pronto: inicie o servidor (npm start); as migrações pendentes rodam na partida.');
} catch (error) {
  console.error(error instanceof RestoreRefused ? error.message : error);
  process.exit(1);
}
