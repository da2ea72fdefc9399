import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PNG } from 'pngjs';
import type { Logo } from './render.ts';

/** How long the agent waits for the logo file before printing the receipt without it. */
const FETCH_TIMEOUT_MS = 5_000;
/** The logo's path on the API (core's printDocumentSchema checks the same shape). */
const LOGO_PATH = /^\/v1\/settings\/logo\/\d+\/[a-f0-9]{32}\.png$/;

/**
 * The shop's logo for receipts (issue 36). A receipt job names the stored logo's path; the agent
 * fetches it once from its own server (the name is random per upload, so a new logo is a new path and
 * a path never changes content), keeps the PNG in its folder (a restart without network still prints
 * it) and the decoded pixels in memory. A logo that cannot be had never holds a receipt: it prints
 * without one.
 */
export class LogoCache {
  private readonly dir: string;
  private readonly decoded = new Map<string, Logo>();
  /** Paths that failed recently (not asked again for a minute). */
  private readonly failedAt = new Map<string, number>();

  constructor(
    root: string,
    private readonly server: string,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.dir = join(root, 'logos');
    mkdirSync(this.dir, { recursive: true });
  }

  async get(path: string | undefined): Promise<Logo | null> {
    if (!path || !LOGO_PATH.test(path)) return null;
    const known = this.decoded.get(path);
    if (known) return known;
    const file = join(this.dir, `${path.split('/')[4]}-${basename(path)}`);
    let png: Buffer | null = null;
    try {
      png = readFileSync(file);
    } catch {
      png = await this.download(path);
      if (png) {
        writeFileSync(`${file}.tmp`, png);
        renameSync(`${file}.tmp`, file);
      }
    }
    if (!png) return null;
    try {
      const image = PNG.sync.read(png);
      const logo: Logo = {
        width: image.width,
        height: image.height,
        data: new Uint8ClampedArray(image.data),
      };
      this.decoded.set(path, logo);
      return logo;
    } catch {
      this.log(`logo ilegível (${path}): recibo sem logo`);
      return null;
    }
  }

  private async download(path: string): Promise<Buffer | null> {
    const failed = this.failedAt.get(path);
    if (failed && Date.now() - failed < 60_000) return null;
    try {
      const response = await fetch(new URL(path, this.server), {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      this.failedAt.set(path, Date.now());
      this.log(`logo indisponível (${(error as Error).message}): recibo sem logo`);
      return null;
    }
  }
}
