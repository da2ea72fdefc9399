import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A streamed CSV download: the header, then the rows turned into lines 500 at a time, so a large
 * export never sits whole in memory. Answered as `${name}-<today>.csv` (`today`: the shop's date,
 * `shopClock`), never cached.
 * The first row is read BEFORE the answer starts: a query the database refuses (a bad sort, a bad
 * filter) is the same 400 as the list's, never a 200 with a header line and a cut connection.
 */
export async function sendCsvStream<T>(
  reply: FastifyReply,
  name: string,
  csv: {
    header: string;
    rows: AsyncIterable<T>;
    lines: (batch: T[]) => string;
    today: string;
    /** A file name of its own (the sale list's names its period); `${name}-${today}.csv` otherwise. */
    fileName?: string;
  },
) {
  const iterator = csv.rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* chunks() {
    yield csv.header;
    let batch: T[] = [];
    for (let next = first; !next.done; next = await iterator.next()) {
      batch.push(next.value);
      if (batch.length === 500) {
        yield csv.lines(batch);
        batch = [];
      }
    }
    yield csv.lines(batch);
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.fileName ?? `${name}-${csv.today}.csv`}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks()));
}
