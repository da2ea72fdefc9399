import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A streamed CSV download: the header, then the rows turned into lines 500 at a time, so a large
 * export never sits whole in memory. Answered as `${name}-YYYY-MM-DD.csv`, never cached.
 */
export function sendCsvStream<T>(
  reply: FastifyReply,
  name: string,
  csv: { header: string; rows: AsyncIterable<T>; lines: (batch: T[]) => string },
) {
  async function* chunks() {
    yield csv.header;
    let batch: T[] = [];
    for await (const row of csv.rows) {
      batch.push(row);
      if (batch.length === 500) {
        yield csv.lines(batch);
        batch = [];
      }
    }
    yield csv.lines(batch);
  }
  const date = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${date}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks()));
}
