import { resolve } from 'node:path';
import { DatabaseNewerThanCode } from './db/client.ts';
import { MoveError, moveToPostgres } from './db/moveToPostgres.ts';

/**
 * `npm run move-to-postgres -- postgres://user:password@host:5432/db` (issue 37): the shop's PGlite
 * folder (DATA_DIR, default ./data) copied into an empty PostgreSQL database, checked on both sides.
 * Stop Balcão before running it: PGlite is one process's database.
 */
const url = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const dataDir = resolve(process.env.DATA_DIR || './data');
try {
  console.log(`Copiando ${dataDir} para o PostgreSQL (pare o Balcão antes, se estiver rodando).`);
  const result = await moveToPostgres({ dataDir, url: url ?? '', log: (line) => console.log(line) });
  const width = Math.max(...result.tables.map((t) => t.table.length));
  for (const t of result.tables)
    console.log(`  ${t.table.padEnd(width)}  ${String(t.rows).padStart(9)} linhas  checksum ${t.checksum}`);
  console.log(
    `\nTudo conferido: ${result.tables.length} tabelas, ${result.totalRows} linhas iguais nos dois lados ` +
      `(${(result.ms / 1000).toFixed(1)} s).\nPara o Balcão usar o PostgreSQL, inicie-o com:\n\n  ${result.databaseUrlLine}\n`,
  );
} catch (error) {
  if (error instanceof MoveError || error instanceof DatabaseNewerThanCode) {
    console.error(`\nNada foi copiado para uso: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
