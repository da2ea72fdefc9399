import { randomBytes } from 'node:crypto';
import { PRODUCT_IMAGE_UPLOAD, type ProductImage } from '@balcao/core/product';
import { and, asc, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { sniffImageType } from '../../lib/upload.ts';
import type { Storage } from '../storage/storage.ts';
import { PRODUCT_NOT_FOUND } from './find.ts';
import { IMAGE_SIZES, imageFileKey, imageUrls } from './imageUrls.ts';
import { productImages, products } from './schema.ts';

const MAX_IMAGES_PER_PRODUCT = 10;

type ProcessedImage = {
  width: number;
  height: number;
  display: Buffer;
  thumb: Buffer;
};

/**
 * Decodes, turns by the EXIF orientation, drops metadata (GPS of phone photos) and writes two WebP
 * sizes: display (longest side up to 1200 px) and thumbnail (up to 240 px). Never enlarges.
 */
async function processImage(data: Buffer): Promise<ProcessedImage> {
  if (!sniffImageType(data)) throw new AppError(422, PRODUCT_IMAGE_UPLOAD.notSupported);
  try {
    const base = sharp(data, { limitInputPixels: 40_000_000, failOn: 'error' }).rotate();
    const resize = (max: number) =>
      base
        .clone()
        .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 });
    const [display, thumb] = await Promise.all([
      resize(IMAGE_SIZES.display).toBuffer({ resolveWithObject: true }),
      resize(IMAGE_SIZES.thumb).toBuffer(),
    ]);
    return { width: display.info.width, height: display.info.height, display: display.data, thumb };
  } catch {
    throw new AppError(422, 'Não foi possível ler a imagem: o arquivo parece corrompido');
  }
}

async function assertProduct(db: Db, clientId: number, productId: number) {
  const [p] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.clientId, clientId), eq(products.id, productId)));
  if (!p) throw notFound(PRODUCT_NOT_FOUND);
}

async function listImages(db: Db, productId: number): Promise<ProductImage[]> {
  const rows = await db
    .select()
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id));
  return rows.map((r) => ({
    id: r.id,
    position: r.position,
    width: r.width,
    height: r.height,
    ...imageUrls(r.storageKey),
  }));
}

/** Stores both sizes, then records the image at the end of the product's list (the first is the cover). */
export async function addImage(
  db: Db,
  storage: Storage,
  actor: Actor,
  productId: number,
  data: Buffer,
): Promise<ProductImage> {
  const clientId = actor.clientId;
  await assertProduct(db, clientId, productId);
  const [{ n }] = await db
    .select({ n: count() })
    .from(productImages)
    .where(eq(productImages.productId, productId));
  if (n >= MAX_IMAGES_PER_PRODUCT)
    throw new AppError(422, `Cada produto pode ter no máximo ${MAX_IMAGES_PER_PRODUCT} imagens`);
  const image = await processImage(data);
  const storageKey = `product/${clientId}/${productId}/${randomBytes(16).toString('hex')}`;
  await storage.put(imageFileKey(storageKey, 'display'), image.display);
  await storage.put(imageFileKey(storageKey, 'thumb'), image.thumb);
  try {
    const [row] = await db.transaction(async (tx) => {
      const [{ next }] = await tx
        .select({ next: count() })
        .from(productImages)
        .where(eq(productImages.productId, productId));
      return tx
        .insert(productImages)
        .values({
          clientId,
          productId,
          position: next,
          storageKey,
          width: image.width,
          height: image.height,
          bytes: image.display.length,
        })
        .returning();
    });
    return {
      id: row.id,
      position: row.position,
      width: row.width,
      height: row.height,
      ...imageUrls(storageKey),
    };
  } catch (error) {
    await removeImageFiles(storage, storageKey);
    throw error;
  }
}

export async function removeImageFiles(storage: Storage, storageKey: string) {
  await storage.remove(imageFileKey(storageKey, 'display'));
  await storage.remove(imageFileKey(storageKey, 'thumb'));
}

async function renumber(db: Db, productId: number, orderedIds: number[]) {
  for (const [position, id] of orderedIds.entries())
    await db
      .update(productImages)
      .set({ position })
      .where(and(eq(productImages.productId, productId), eq(productImages.id, id)));
}

export async function deleteImage(
  db: Db,
  storage: Storage,
  actor: Actor,
  productId: number,
  imageId: number,
): Promise<ProductImage[]> {
  const clientId = actor.clientId;
  await assertProduct(db, clientId, productId);
  const storageKey = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(productImages)
      .where(and(eq(productImages.productId, productId), eq(productImages.id, imageId)))
      .returning({ storageKey: productImages.storageKey });
    if (!row) throw notFound('Imagem não encontrada');
    const rest = await tx
      .select({ id: productImages.id })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.id));
    await renumber(
      tx as unknown as Db,
      productId,
      rest.map((r) => r.id),
    );
    return row.storageKey;
  });
  await removeImageFiles(storage, storageKey);
  return listImages(db, productId);
}

/** New order of the images: the first becomes the cover. */
export async function reorderImages(
  db: Db,
  actor: Actor,
  productId: number,
  imageIds: number[],
): Promise<ProductImage[]> {
  const clientId = actor.clientId;
  await assertProduct(db, clientId, productId);
  await db.transaction(async (tx) => {
    const current = await tx
      .select({ id: productImages.id })
      .from(productImages)
      .where(eq(productImages.productId, productId));
    const ids = new Set(current.map((r) => r.id));
    if (
      imageIds.length !== ids.size ||
      new Set(imageIds).size !== ids.size ||
      imageIds.some((id) => !ids.has(id))
    )
      throw new AppError(422, 'Envie todas as imagens do produto, cada uma uma vez, na nova ordem');
    await renumber(tx as unknown as Db, productId, imageIds);
  });
  return listImages(db, productId);
}
