/**
 * Product images are stored as `product/{clientId}/{productId}/{random}-{size}.webp`; the database
 * keeps `product/{clientId}/{productId}/{random}`. The random part (128 bits) makes the public URL
 * unguessable, and a new upload gets a new name, so the files can be cached forever.
 */
export const IMAGE_SIZES = { display: 1200, thumb: 240 } as const;
type ImageSize = keyof typeof IMAGE_SIZES;

export function imageFileKey(storageKey: string, size: ImageSize): string {
  return `${storageKey}-${size}.webp`;
}

export function imageUrls(storageKey: string): { url: string; thumbUrl: string } {
  const path = storageKey.replace(/^product\//, '');
  return { url: `/v1/product-image/${path}-display.webp`, thumbUrl: `/v1/product-image/${path}-thumb.webp` };
}
