import { Readable } from 'node:stream';
import { FISCAL_NOTE_STATUS_LABELS, type FiscalNoteStatus } from '@balcao/core/fiscal';
import { formatInZone } from '@balcao/core/time';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import yazl from 'yazl';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';

/**
 * The accountant's monthly ZIP (issue 32), built with yazl (already the shop export's ZIP writer:
 * streams, no native code): for the month, in the shop's time zone,
 * - NFCe/<key>-nfce.xml: each authorised or canceled note's nfeProc (NFe + protNFe);
 * - eventos/<key>-cancelamento.xml: the cancel event (procEventoNFe) of each canceled note;
 * - inutilizacoes/<series>-<from>-<to>.xml: each homologated inutilização (request + SEFAZ's answer);
 * - resumo.csv: one line per note of the month (every status), then the inutilizações, in the
 *   spreadsheet conventions of Brazil (semicolon, decimal comma, UTF-8 with BOM).
 * Streamed: the notes' list (no XML) is read first; each XML entry is added lazily (yazl's
 * addReadStreamLazy), its text read when yazl reaches it, PAGE notes per query, one page in memory.
 * yazl pipes each entry into the response with backpressure, so a slow download reads no further
 * ahead and a month of 10,000 notes (~60 MB of XML) never sits in memory (bench/nfce-month-zip.ts).
 */

type Row = {
  id: number;
  number: number;
  series: number;
  access_key: string;
  status: FiscalNoteStatus;
  tp_emis: number;
  total_cents: number;
  protocol: string | null;
  has_proc: boolean;
  has_cancel: boolean;
  cancel_protocol: string | null;
  created_at: string | Date;
};
type VoidRow = {
  series: number;
  from_number: number;
  to_number: number;
  protocol: string | null;
  xml: string;
  reason: string;
  created_at: string | Date;
};

/** Notes whose XML one query reads. */
const PAGE = 200;

const money = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

export async function monthZip(
  db: Executor,
  actor: Actor,
  month: string,
): Promise<{ stream: Readable; name: string }> {
  const [zone] = (
    (await db.execute(sql`select time_zone from clients where id = ${actor.clientId}`)) as unknown as {
      rows: { time_zone: string }[];
    }
  ).rows;
  const timeZone = zone?.time_zone ?? 'America/Sao_Paulo';
  const inMonth = (column: string) =>
    sql`to_char(${sql.raw(column)} at time zone ${timeZone}, 'YYYY-MM') = ${month}`;
  const notes = (
    (await db.execute(sql`select id, number, series, access_key, status, tp_emis, total_cents, protocol,
        proc_xml is not null as has_proc, cancel_xml is not null as has_cancel, cancel_protocol, created_at
      from fiscal_notes where client_id = ${actor.clientId} and ${inMonth('created_at')}
      order by series, number`)) as unknown as { rows: Row[] }
  ).rows;
  const voids = (
    (await db.execute(sql`select series, from_number, to_number, protocol, xml, reason, created_at
      from fiscal_voids where client_id = ${actor.clientId} and status_code = '102' and ${inMonth('created_at')}
      order by series, from_number`)) as unknown as { rows: VoidRow[] }
  ).rows;

  // The XMLs, PAGE notes at a time, in the order yazl asks for them (the notes' order).
  const position = new Map(notes.map((n, i) => [n.id, i]));
  let page = new Map<number, { proc: string | null; cancel: string | null }>();
  const xmlOf = async (id: number) => {
    if (!page.has(id)) {
      const start = position.get(id) ?? 0;
      const ids = notes.slice(start, start + PAGE).map((n) => n.id);
      const rows = (
        (await db.execute(sql`select id, proc_xml, cancel_xml from fiscal_notes
          where client_id = ${actor.clientId} and id in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`)) as unknown as { rows: { id: number; proc_xml: string | null; cancel_xml: string | null }[] }
      ).rows;
      page = new Map(rows.map((r) => [Number(r.id), { proc: r.proc_xml, cancel: r.cancel_xml }]));
    }
    return page.get(id) ?? { proc: null, cancel: null };
  };
  const lazy =
    (id: number, text: (xml: { proc: string | null; cancel: string | null }) => string) =>
    (done: (error: Error | null, stream: NodeJS.ReadableStream) => void) => {
      xmlOf(id).then(
        (xml) => done(null, Readable.from([Buffer.from(text(xml))])),
        (error: Error) => done(error, Readable.from([])),
      );
    };

  const zip = new yazl.ZipFile();
  // A failed page read ends the download with an error (never a ZIP cut short that looks whole).
  zip.on('error', (error: Error) => (zip.outputStream as unknown as Readable).destroy(error));
  for (const note of notes) {
    const id = Number(note.id);
    if ((note.status === 'authorised' || note.status === 'canceled') && note.has_proc)
      zip.addReadStreamLazy(
        `NFCe/${note.access_key}-nfce.xml`,
        lazy(id, (xml) => xml.proc ?? ''),
      );
    if (note.status === 'canceled' && note.has_cancel)
      zip.addReadStreamLazy(
        `eventos/${note.access_key}-cancelamento.xml`,
        lazy(id, (xml) => `<?xml version="1.0" encoding="UTF-8"?>${xml.cancel ?? ''}`),
      );
  }
  for (const v of voids)
    zip.addBuffer(Buffer.from(v.xml), `inutilizacoes/${v.series}-${v.from_number}-${v.to_number}.xml`);

  const when = (at: string | Date) => formatInZone(new Date(at), timeZone, 'dateTime');
  const rows = [
    [
      'tipo',
      'serie',
      'numero',
      'chave',
      'emissao',
      'situacao',
      'contingencia',
      'valor',
      'protocolo',
      'protocolo_cancelamento',
    ],
    ...notes.map((n) => [
      'NFC-e',
      String(n.series),
      String(n.number),
      n.access_key.startsWith('pending-') ? '' : n.access_key,
      when(n.created_at),
      FISCAL_NOTE_STATUS_LABELS[n.status] ?? n.status,
      n.tp_emis === 9 ? 'sim' : 'nao',
      money(n.total_cents),
      n.protocol ?? '',
      n.cancel_protocol ?? '',
    ]),
    ...voids.map((v) => [
      'Inutilização',
      String(v.series),
      v.from_number === v.to_number ? String(v.from_number) : `${v.from_number}-${v.to_number}`,
      '',
      when(v.created_at),
      'Inutilizada',
      '',
      '',
      v.protocol ?? '',
      '',
    ]),
  ];
  zip.addBuffer(
    Buffer.from(`\uFEFF${Papa.unparse(rows, { delimiter: ';', escapeFormulae: true })}\r\n`),
    'resumo.csv',
  );
  zip.end();
  return { stream: Readable.from(zip.outputStream), name: `nfce-${month}.zip` };
}
