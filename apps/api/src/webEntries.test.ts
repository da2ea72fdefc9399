import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helper.ts';

/**
 * The web app's two HTML entries (issue 35): the table's QR menu (/mesa/{token}) gets its own small
 * page, mesa.html, not the app shell that every other address gets.
 */
let t: TestApp;
let dist: string;
/** mesa.html's inline script (the menu asked for early): allowed by its hash on that page only. */
const EARLY = "window.__mesaMenu = fetch('/v1/public/table/x');";

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'balcao-web-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Balcão</title>app shell');
  writeFileSync(
    join(dist, 'mesa.html'),
    `<!doctype html><title>Cardápio da mesa</title><script>${EARLY}</script>table menu`,
  );
  t = await createTestApp({ webDist: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('web entries', () => {
  it("/mesa/{token} gets the table menu's own page; the other addresses the app shell", async () => {
    const mesa = await t.app.inject({ method: 'GET', url: '/mesa/AbC123xyz' });
    expect(mesa.statusCode).toBe(200);
    expect(mesa.body).toContain('table menu');
    for (const url of ['/', '/login', '/dashboard/sale/pdv', '/mesas', '/dashboard/mesa/1']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('app shell');
    }
    // The page's inline script runs (its hash in script-src); the app shell's CSP stays 'self' only.
    const hash = `'sha256-${createHash('sha256').update(EARLY).digest('base64')}'`;
    expect(String(mesa.headers['content-security-policy'])).toContain(`script-src 'self' ${hash};`);
    const shell = await t.app.inject({ method: 'GET', url: '/' });
    expect(String(shell.headers['content-security-policy'])).toContain("script-src 'self';");
    // A missing chunk under /mesa is still a 404, never a page served as JavaScript.
    expect((await t.app.inject({ method: 'GET', url: '/mesa/assets/x.js' })).statusCode).toBe(404);
  });
});
