import { randomBytes } from 'node:crypto';
import { MAX_PAYABLE_ATTACHMENTS, PAYABLE_ATTACHMENT_UPLOAD, PAYABLE_MESSAGES } from '@balcao/core/payable';
import type { Deleted } from '@balcao/core/responses';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notFound, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { sniffUploadType } from '../../lib/upload.ts';
import type { Storage } from '../storage/storage.ts';
import type { StoredFile } from '../storage/types.ts';
import { payableAttachments, payables } from './schema.ts';

const M = PAYABLE_MESSAGES;

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** The shown name: the browser's, without a path, control characters or more than 120 characters. */
export function cleanFileName(name: string, contentType: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(-120);
  return base || `anexo.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/**
 * Content-Disposition for a download (RFC 6266): an ASCII fallback name and the real one as
 * RFC 8187 UTF-8 (accents in "Nota fiscal março.pdf" survive).
 */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

async function ownPayable(db: Db, actor: Actor, payableId: number) {
  const [row] = await db
    .select({ id: payables.id })
    .from(payables)
    .where(and(eq(payables.id, payableId), eq(payables.clientId, actor.clientId)));
  if (!row) throw notFound(M.payableNotFound);
}

/**
 * Keeps a file with a payable (issue 34): the bytes sniffed again (PDF or an image; the route refused
 * anything else with 415), stored under a random name, the row written after the file, so a row never
 * points at nothing. At most MAX_PAYABLE_ATTACHMENTS per payable (422).
 */
export async function addAttachment(
  db: Db,
  storage: Storage,
  actor: Actor,
  payableId: number,
  file: { data: Buffer; name: string },
) {
  await ownPayable(db, actor, payableId);
  const contentType = sniffUploadType(file.data, PAYABLE_ATTACHMENT_UPLOAD) ?? 'application/octet-stream';
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payableAttachments)
    .where(eq(payableAttachments.payableId, payableId));
  if (count >= MAX_PAYABLE_ATTACHMENTS) throw unprocessable(M.tooManyAttachments);
  const key = `payable/${actor.clientId}/${payableId}/${randomBytes(16).toString('hex')}.${EXTENSIONS[contentType] ?? 'bin'}`;
  await storage.put(key, file.data);
  try {
    const [row] = await db
      .insert(payableAttachments)
      .values({
        clientId: actor.clientId,
        payableId,
        fileName: cleanFileName(file.name, contentType),
        contentType,
        sizeBytes: file.data.length,
        storageKey: key,
      })
      .returning();
    return {
      id: row.id,
      name: row.fileName,
      contentType: row.contentType,
      sizeBytes: row.sizeBytes,
      createdAt: row.createdAt.toISOString(),
    };
  } catch (error) {
    // The payable was deleted meanwhile: the file goes too.
    await storage.remove(key).catch(() => undefined);
    throw error;
  }
}

async function attachmentRow(db: Db, actor: Actor, payableId: number, attachmentId: number) {
  const [row] = await db
    .select()
    .from(payableAttachments)
    .where(
      and(
        eq(payableAttachments.id, attachmentId),
        eq(payableAttachments.payableId, payableId),
        eq(payableAttachments.clientId, actor.clientId),
      ),
    );
  if (!row) throw notFound(M.attachmentNotFound);
  return row;
}

/** A payable's file to download: its bytes, type and name (404 for another shop's). */
export async function attachmentFile(
  db: Db,
  storage: Storage,
  actor: Actor,
  payableId: number,
  attachmentId: number,
): Promise<{ file: StoredFile; name: string; contentType: string }> {
  const row = await attachmentRow(db, actor, payableId, attachmentId);
  const file = await storage.get(row.storageKey);
  if (!file) throw notFound(M.attachmentNotFound);
  return { file, name: row.fileName, contentType: row.contentType };
}

/** Removes a file of a payable: the row, then the bytes. */
export async function removeAttachment(
  db: Db,
  storage: Storage,
  actor: Actor,
  payableId: number,
  attachmentId: number,
): Promise<Deleted> {
  const row = await attachmentRow(db, actor, payableId, attachmentId);
  await db.delete(payableAttachments).where(eq(payableAttachments.id, row.id));
  await storage.remove(row.storageKey).catch(() => undefined);
  return { id: row.id };
}
