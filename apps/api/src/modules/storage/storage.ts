import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Config } from '../../config.ts';
import { S3Storage } from './s3.ts';
import { assertSafeKey, type Storage, type StoredFile } from './types.ts';

/**
 * Where uploaded files live. The default keeps them on the local disk under DATA_DIR/uploads; with
 * S3_BUCKET set they live in S3-compatible object storage (./s3.ts), which several API machines share.
 */
export type { Storage } from './types.ts';

class LocalDiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`unsafe storage key: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, data);
    await rename(temp, path);
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { stream: createReadStream(path), size: info.size };
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }
}

const byRoot = new Map<string, Storage>();

/** The storage of a config: S3-compatible when configured (S3_BUCKET), else local disk under DATA_DIR/uploads. */
export function storageFor(config: Pick<Config, 'dataDir' | 's3'>): Storage {
  const root = config.s3
    ? `s3:${config.s3.endpoint ?? 'aws'}/${config.s3.bucket}/${config.s3.accessKeyId}`
    : join(config.dataDir, 'uploads');
  let storage = byRoot.get(root);
  if (!storage) {
    storage = config.s3 ? new S3Storage(config.s3) : new LocalDiskStorage(root);
    byRoot.set(root, storage);
  }
  return storage;
}
