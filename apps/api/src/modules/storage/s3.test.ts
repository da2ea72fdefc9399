import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../test/fakes/s3.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { asUser, makeProduct } from '../../../test/kit.ts';
import type { S3Config } from '../../config.ts';
import { S3Storage } from './s3.ts';
import { storageFor } from './storage.ts';

let fake: FakeS3;
let config: S3Config;
beforeAll(async () => {
  fake = await startFakeS3({ buckets: ['balcao', 'other'] });
  config = {
    endpoint: fake.url,
    bucket: 'balcao',
    region: 'us-east-1',
    accessKeyId: 'fake-access-key',
    secretAccessKey: 'fake-secret-key',
    forcePathStyle: true,
  };
});
afterAll(() => fake.close());

describe('S3 storage (AWS SDK v3 against a local S3-compatible server)', () => {
  it('puts, reads back, removes; a missing key reads as null', async () => {
    const storage = new S3Storage(config);
    await storage.put('logo/7/abc.png', Buffer.from('um logo'));
    expect(fake.buckets.get('balcao')?.get('logo/7/abc.png')?.body.toString()).toBe('um logo');
    const stored = await storage.get('logo/7/abc.png');
    expect(stored?.size).toBe(7);
    expect(await text(stored?.stream as NodeJS.ReadableStream)).toBe('um logo');
    await storage.remove('logo/7/abc.png');
    expect(await storage.get('logo/7/abc.png')).toBeNull();
    await storage.remove('logo/7/abc.png'); // twice is fine
  });

  it('removes every key under a prefix, over several list pages', async () => {
    const storage = new S3Storage(config);
    for (let i = 0; i < 1005; i++)
      fake.buckets.get('balcao')?.set(`product/1/${i}.webp`, {
        body: Buffer.from('x'),
        contentType: 'image/webp',
        etag: 'e',
      });
    await storage.put('product/10/keep.webp', Buffer.from('fica'));
    await storage.removeAll('product/1');
    const left = [...(fake.buckets.get('balcao')?.keys() ?? [])].filter((k) => k.startsWith('product/'));
    expect(left).toEqual(['product/10/keep.webp']);
    expect(
      fake.requests.filter((r) => /^GET \/balcao\/?\?.*list-type=2/.test(r)).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it("raises S3's own errors: wrong secret, unknown key id, missing bucket", async () => {
    await expect(
      new S3Storage({ ...config, secretAccessKey: 'wrong' }).put('a/b', Buffer.from('x')),
    ).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(new S3Storage({ ...config, accessKeyId: 'nobody' }).get('a/b')).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
    });
    await expect(new S3Storage({ ...config, bucket: 'missing' }).get('a/b')).rejects.toMatchObject({
      name: 'NoSuchBucket',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('refuses keys that could leave the bucket root', async () => {
    await expect(new S3Storage(config).put('../etc/passwd', Buffer.from('x'))).rejects.toThrow('unsafe');
  });

  it('is the storage of a config with S3 settings, local disk without', () => {
    expect(storageFor({ dataDir: '/tmp/x', s3: config })).toBeInstanceOf(S3Storage);
    expect(storageFor({ dataDir: '/tmp/x' })).not.toBeInstanceOf(S3Storage);
  });
});

describe('product images in S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ s3: { ...config, bucket: 'other' } });
  });
  afterAll(() => t.close());

  it('an uploaded image is stored in the bucket and served from it', async () => {
    const { auth } = await asUser(t);
    const product = await makeProduct(t, auth);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const boundary = 'balcaoS3';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/product/${product.id}/image`,
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(201);
    const keys = [...(fake.buckets.get('other')?.keys() ?? [])];
    expect(keys.some((k) => k.startsWith(`product/`) && k.endsWith('.webp'))).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: res.json().url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(40);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/v1/product/${product.id}/image/${res.json().id}`,
      headers: auth,
    });
    expect(gone.statusCode).toBe(200);
    expect(fake.buckets.get('other')?.size).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: res.json().url })).statusCode).toBe(404);
  });
});
