import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { to as copyTo } from 'pg-copy-streams';
import { type Db, postgresPoolOf } from '../db/client.ts';

const dialect = new PgDialect();
const LF = 0x0a;
const BACKSLASH = 0x5c;
const ESCAPES: Record<number, number> = {
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
  92: 0x5c,
  98: 0x08,
  102: 0x0c,
  118: 0x0b,
};

/**
 * COPY's text format of one text column back to the text itself, each row ended by CRLF (a CSV's line
 * break): COPY writes a row's LF as "\n", its CR as "\r", a backslash as "\\" and ends each row with LF.
 * A chunk without a backslash (nearly all) only gets its row ends widened.
 */
export class CopyTextLines extends Transform {
  private carry: Buffer | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    // An escape cut by the chunk's end waits for the next chunk.
    if (data.length > 0 && data[data.length - 1] === BACKSLASH) {
      let run = 0;
      for (let i = data.length - 1; i >= 0 && data[i] === BACKSLASH; i--) run++;
      if (run % 2 === 1) {
        this.carry = data.subarray(data.length - 1);
        data = data.subarray(0, data.length - 1);
      }
    }
    done(null, data.indexOf(BACKSLASH) === -1 ? widen(data) : unescapeRows(data));
  }

  override _flush(done: TransformCallback): void {
    done(null, this.carry ?? undefined);
  }
}

function widen(data: Buffer): Buffer {
  let count = 0;
  for (let i = data.indexOf(LF); i !== -1; i = data.indexOf(LF, i + 1)) count++;
  const out = Buffer.allocUnsafe(data.length + count);
  let from = 0;
  let at = 0;
  for (let i = data.indexOf(LF); i !== -1; i = data.indexOf(LF, i + 1)) {
    at += data.copy(out, at, from, i);
    out[at++] = 0x0d;
    out[at++] = LF;
    from = i + 1;
  }
  data.copy(out, at, from);
  return out;
}

function unescapeRows(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length * 2);
  let at = 0;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i];
    if (byte === BACKSLASH && i + 1 < data.length) {
      const next = data[++i];
      out[at++] = ESCAPES[next] ?? next;
    } else if (byte === LF) {
      out[at++] = 0x0d;
      out[at++] = LF;
    } else out[at++] = byte;
  }
  return out.subarray(0, at);
}

/**
 * The rows of a query of ONE text column as lines ended by CRLF, streamed by PostgreSQL's COPY ... TO STDOUT
 * (pg-copy-streams) on a connection of the pool, released when the stream ends or fails: the database
 * writes the text, Node only passes bytes on with backpressure, so memory stays flat whatever the size.
 * COPY takes no bind parameters: the query's values are inlined by drizzle's dialect (quoted literals).
 * Undefined on PGlite (the caller reads by cursor pages). `raw`: COPY's bytes as they come (rows ended by LF,
 * COPY's escapes kept), for a query whose text needs none (the XLSX's row XML).
 */
export async function copyLines(
  db: Db,
  query: SQL,
  { raw = false }: { raw?: boolean } = {},
): Promise<NodeJS.ReadableStream | undefined> {
  const pool = postgresPoolOf(db);
  if (!pool) return undefined;
  const { sql: text } = dialect.sqlToQuery(query.inlineParams());
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  try {
    const source = client.query(copyTo(`COPY (${text}) TO STDOUT`));
    const lines = raw ? new PassThrough() : new CopyTextLines();
    source.on('error', (error) => {
      release(error);
      lines.destroy(error);
    });
    source.on('end', () => release());
    lines.on('close', () => {
      // The client stopped reading (a closed download): the connection is not reused mid-COPY.
      if (!released) {
        source.destroy();
        release(new Error('COPY stopped by its reader'));
      }
    });
    return source.pipe(lines);
  } catch (error) {
    release(error as Error);
    throw error;
  }
}
