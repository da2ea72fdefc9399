import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DEBIAN_ROOT = '/usr/lib/postgresql';
const found = new Map<string, string>();

/**
 * The path of a PostgreSQL client program (pg_dump, pg_restore), found as .ci/run finds initdb:
 * `PG_BIN` when set (a folder), else the newest of Debian's `/usr/lib/postgresql/<version>/bin` that
 * has it (pg_dump must be as new as the server, and Debian installs each major version there, without
 * always putting the programs on PATH), else the bare name (PATH).
 */
export function pgProgram(name: 'pg_dump' | 'pg_restore'): string {
  const cached = found.get(name);
  if (cached) return cached;
  let path: string = name;
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, name))) path = join(fromEnv, name);
  else if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT)
      .filter((version) => existsSync(join(DEBIAN_ROOT, version, 'bin', name)))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const newest = versions.at(-1);
    if (newest) path = join(DEBIAN_ROOT, newest, 'bin', name);
  }
  found.set(name, path);
  return path;
}
