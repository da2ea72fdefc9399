import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { type Figures, load, ROOT, type Server } from './lib.ts';

/** POST /v1/login then GET /v1/user/me with the token. */
export async function benchAuth(server: Server): Promise<Figures[]> {
  const login = await load('POST /v1/login (argon2id verify)', {
    url: `${server.url}/v1/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'gerente@demo.com.br', password: 'demo1234' }),
    connections: 10,
  });
  const res = await fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'gerente@demo.com.br', password: 'demo1234' }),
  });
  const { token } = (await res.json()) as { token: string };
  const me = await load('GET /v1/user/me', {
    url: `${server.url}/v1/user/me`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
  });
  return [login, me];
}

/** The gzipped JS the browser downloads to show /login (the budget is 150 KB). */
export async function loginJsBytes(
  server: Server,
  distDir = join(ROOT, 'apps/web/dist'),
): Promise<{ files: string[]; gzipBytes: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  const files: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) files.push(url.pathname);
  });
  await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  await browser.close();
  let gzipBytes = 0;
  for (const file of files) gzipBytes += gzipSync(readFileSync(join(distDir, file))).length;
  return { files, gzipBytes };
}
