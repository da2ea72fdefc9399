import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCT_IMAGE_UPLOAD } from '@balcao/core/product';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientWithUsers, createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeProduct } from '../../../test/kit.ts';

const IMAGE_NOT_SUPPORTED = PRODUCT_IMAGE_UPLOAD.notSupported;
const IMAGE_TOO_LARGE = PRODUCT_IMAGE_UPLOAD.tooLarge;

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'balcao-images-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A multipart/form-data body with one file part. */
function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(
  auth: Record<string, string>,
  productId: number,
  filename: string,
  type: string,
  data: Buffer,
) {
  const body = multipart(filename, type, data);
  return t.app.inject({
    method: 'POST',
    url: `/v1/product/${productId}/image`,
    headers: { ...auth, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const photo = (width: number, height: number, format: 'png' | 'jpeg' | 'webp') =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    [format]()
    .toBuffer();

describe('product images', () => {
  it('stores a thumbnail and a display size as WebP, served with long cache headers; first is the cover', async () => {
    const { client, auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth, { name: 'Camiseta' });
    const res = await upload(auth, p.id, 'camiseta.jpg', 'image/jpeg', await photo(2400, 1600, 'jpeg'));
    expect(res.statusCode).toBe(201);
    const image = res.json();
    expect(image).toMatchObject({ position: 0, width: 1200, height: 800 });

    const display = await t.app.inject({ method: 'GET', url: image.url });
    expect(display.statusCode).toBe(200);
    expect(display.headers['content-type']).toBe('image/webp');
    expect(display.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(display.rawPayload).metadata()).width).toBe(1200);
    const thumb = await t.app.inject({ method: 'GET', url: image.thumbUrl });
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 240, 160]);

    // A small PNG is not enlarged; it goes second.
    const second = (await upload(auth, p.id, 'verso.png', 'image/png', await photo(300, 300, 'png'))).json();
    expect(second).toMatchObject({ position: 1, width: 300, height: 300 });
    const webp = await upload(auth, p.id, 'lado.webp', 'image/webp', await photo(100, 50, 'webp'));
    expect(webp.statusCode).toBe(201);

    const list = (
      await t.app.inject({ method: 'GET', url: `/v1/product/client/${client.id}`, headers: auth })
    ).json();
    expect(list.items[0].coverThumbUrl).toBe(image.thumbUrl);

    // Reorder: the second becomes the cover.
    const product = (await t.app.inject({ method: 'GET', url: `/v1/product/${p.id}`, headers: auth })).json();
    const ids = product.images.map((i: { id: number }) => i.id);
    const reordered = await t.app.inject({
      method: 'PUT',
      url: `/v1/product/${p.id}/image-order`,
      headers: auth,
      payload: { imageIds: [ids[1], ids[0], ids[2]] },
    });
    expect(reordered.json().map((i: { id: number }) => i.id)).toEqual([ids[1], ids[0], ids[2]]);
    const relisted = (
      await t.app.inject({ method: 'GET', url: `/v1/product/client/${client.id}`, headers: auth })
    ).json();
    expect(relisted.items[0].coverThumbUrl).toBe(second.thumbUrl);

    // Delete one: its files go, positions close up.
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/v1/product/${p.id}/image/${ids[1]}`,
      headers: auth,
    });
    expect(left.json().map((i: { id: number; position: number }) => [i.id, i.position])).toEqual([
      [ids[0], 0],
      [ids[2], 1],
    ]);
    expect((await t.app.inject({ method: 'GET', url: second.url })).statusCode).toBe(404);

    // Deleting the product removes the files.
    await t.app.inject({ method: 'DELETE', url: `/v1/product/${p.id}`, headers: auth });
    expect((await t.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(404);
    const folder = join(dataDir, 'uploads', 'product', String(client.id), String(p.id));
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
  });

  it('refuses a non-image renamed .png (415), whatever the declared type', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth);
    const fake = Buffer.from('%PDF-1.7\nnot really a picture\n'.repeat(20));
    const res = await upload(auth, p.id, 'foto.png', 'image/png', fake);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(IMAGE_NOT_SUPPORTED);
    const gif = await upload(
      auth,
      p.id,
      'anim.png',
      'image/png',
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    );
    expect(gif.statusCode).toBe(415);
    // Right magic bytes, broken content: 422, nothing stored.
    const broken = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 7),
    ]);
    const bad = await upload(auth, p.id, 'quebrada.png', 'image/png', broken);
    expect(bad.statusCode).toBe(422);
    const product = (await t.app.inject({ method: 'GET', url: `/v1/product/${p.id}`, headers: auth })).json();
    expect(product.images).toEqual([]);
  });

  it('refuses a file over 5 MB (413)', async () => {
    const { auth } = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, auth);
    const header = await photo(10, 10, 'png');
    const big = Buffer.concat([header, Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const res = await upload(auth, p.id, 'grande.png', 'image/png', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(IMAGE_TOO_LARGE);
  });

  it("only catalog roles upload, and never to another client's product", async () => {
    const a = await createClientWithUsers(t, [1, 3]);
    const b = await createClientWithUsers(t, [1]);
    const p = await makeProduct(t, a.auth);
    const png = await photo(20, 20, 'png');
    const vendedor = { authorization: `Bearer ${a.users[1].token}` };
    expect((await upload(vendedor, p.id, 'a.png', 'image/png', png)).statusCode).toBe(403);
    expect((await upload(b.auth, p.id, 'a.png', 'image/png', png)).statusCode).toBe(404);
    const json = await t.app.inject({
      method: 'POST',
      url: `/v1/product/${p.id}/image`,
      headers: a.auth,
      payload: {},
    });
    expect(json.statusCode).toBe(415);
  });
});
