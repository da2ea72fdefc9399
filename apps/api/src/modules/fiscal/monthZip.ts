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
 * The month's XMLs are read in one query: a month of a small shop is a few MB.
 */

type Row = {
  number: number;
  series: number;
  access_key: string;
  status: FiscalNoteStatus;
  tp_emis: number;
  total_cents: number;
  protocol: string | null;
  proc_xml: string | null;
  cancel_xml: string | null;
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
    (await db.execute(sql`select number, series, access_key, status, tp_emis, total_cents, protocol, proc_xml,
        cancel_xml, cancel_protocol, created_at
      from fiscal_notes where client_id = ${actor.clientId} and ${inMonth('created_at')}
      order by series, number`)) as unknown as { rows: Row[] }
  ).rows;
  const voids = (
    (await db.execute(sql`select series, from_number, to_number, protocol, xml, reason, created_at
      from fiscal_voids where client_id = ${actor.clientId} and status_code = '102' and ${inMonth('created_at')}
      order by series, from_number`)) as unknown as { rows: VoidRow[] }
  ).rows;

  const zip = new yazl.ZipFile();
  for (const note of notes) {
    if ((note.status === 'authorised' || note.status === 'canceled') && note.proc_xml)
      zip.addBuffer(Buffer.from(note.proc_xml), `NFCe/${note.access_key}-nfce.xml`);
    if (note.status === 'canceled' && note.cancel_xml)
      zip.addBuffer(
        Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${note.cancel_xml}`),
        `eventos/${note.access_key}-cancelamento.xml`,
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
