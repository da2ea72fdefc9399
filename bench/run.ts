/**
 * `npm run bench`: runs the benchmarks against a production start (NODE_ENV=production, built web app)
 * on PGlite, prints figures and the markdown rows to paste in bench/RESULTS.md.
 * Usage: npm run bench [-- auth]   (scenario names; default all registered here)
 */
import { benchAuth, loginJsBytes } from './auth.ts';
import { ensureWebBuild, machine, startServer, table } from './lib.ts';

const wanted = process.argv.slice(2);
const run = (name: string) => wanted.length === 0 || wanted.includes(name);

ensureWebBuild();
const server = await startServer({ databaseUrl: process.env.DATABASE_URL });
try {
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()} · ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n`,
  );
  if (run('auth')) {
    console.log(table(await benchAuth(server)));
    const js = await loginJsBytes(server);
    console.log(
      `\n/login downloads ${js.files.length} JS files, ${(js.gzipBytes / 1024).toFixed(1)} KB gzipped (budget 150 KB)`,
    );
  }
} finally {
  await server.stop();
}
