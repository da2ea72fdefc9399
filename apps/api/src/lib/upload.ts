import type { Upload } from '@balcao/core/contract';
import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The real type of the bytes (magic numbers), never the file name or the browser's claim. */
export function sniffImageType(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

/** The largest upload any route accepts (the multipart parser's own ceiling; each route sets its own). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * The one image upload (multipart field "file"): read whole into memory up to the route's limit,
 * its bytes sniffed. 415 when the request is not multipart or the bytes are not JPEG, PNG or WebP,
 * 400 without a file, 413 over the limit: each with the route's Portuguese text.
 */
export async function readImageUpload(request: FastifyRequest, upload: Upload): Promise<Buffer> {
  return (await readUpload(request, upload)).data;
}

/** An XML document: "<" first, after a UTF-8 byte order mark and white space. */
export function isXml(data: Buffer): boolean {
  const start = data
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return start.startsWith('<');
}

/** A PDF by its magic number ("%PDF-"). */
export function isPdf(data: Buffer): boolean {
  return data.length >= 5 && data.subarray(0, 5).toString('latin1') === '%PDF-';
}

/** The upload's real type: an image's, or application/pdf where the route takes a PDF; null otherwise. */
export function sniffUploadType(data: Buffer, upload: Pick<Upload, 'pdf' | 'xml'>): string | null {
  if (upload.xml) return isXml(data) ? 'application/xml' : null;
  return sniffImageType(data) ?? (upload.pdf && isPdf(data) ? 'application/pdf' : null);
}

/** The uploaded file's bytes and the name the browser gave it (as readImageUpload checks them). */
export async function readUpload(
  request: FastifyRequest,
  upload: Upload,
): Promise<{ data: Buffer; name: string }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'Envie a imagem como multipart/form-data no campo "file"');
  }
  const file = await request.file({ limits: { fileSize: upload.maxBytes, files: 1, fields: 5, parts: 6 } });
  if (!file) throw new AppError(400, upload.pdf ? 'Envie um arquivo' : 'Envie um arquivo de imagem');
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, upload.tooLarge);
    throw error;
  }
  if (file.file.truncated) throw new AppError(413, upload.tooLarge);
  if (!sniffUploadType(data, upload)) throw new AppError(415, upload.notSupported);
  return { data, name: file.filename };
}
