import { USER_TYPE_IDS, USER_TYPE_SLUGS, type UserTypeId } from '@balcao/core/userTypes';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { io } from 'socket.io-client';

export const DEMO_PASSWORD = 'demo1234';
export const demoEmail = (typeId: UserTypeId) => `${USER_TYPE_SLUGS[typeId]}@demo.com.br`;
export const DEMO_USERS = USER_TYPE_IDS.map((id) => ({ id, email: demoEmail(id) }));

/** Logs in through the real login form and waits to leave /login. */
export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

export const loginAs = (page: Page, typeId: UserTypeId) => login(page, demoEmail(typeId));

/** A token from the API directly (for arranging data through HTTP in tests). */
export async function apiLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await page.request.post('/v1/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/**
 * Closes the user's open cash register, if any, through the API (counting nothing): a test that opens
 * the PDV as a demo user starts from the "Abrir caixa" dialog whatever the specs before it left open.
 */
export async function closeRegisterViaApi(page: Page, typeId: UserTypeId) {
  const token = await apiLogin(page, demoEmail(typeId));
  const res = await page.request.post('/v1/cash-register/close', {
    headers: { authorization: `Bearer ${token}` },
    data: { counted: [] },
  });
  // 422: the user has no open register, which is what the caller wants.
  expect([200, 422], await res.text()).toContain(res.status());
}

/** A customer's delivery address: the one the fake ViaCEP answers for 01001-000 (test/fakes/viacep.ts). */
export const SE_ADDRESS = {
  zipCode: '01001000',
  street: 'Praça da Sé',
  number: '100',
  neighborhood: 'Centro',
  city: 'São Paulo',
  state: 'SP',
};

/**
 * Resolves once the page's socket has asked to join its shop's channel and the server has read that
 * request: over HTTP long-polling, the POST carrying `joinChannel` has been answered (the server reads
 * a polled packet before it answers); over a WebSocket, the frame has left the page. Call it before the
 * page logs in; await it before the API sends something the page must receive live. The server checks
 * the session of the join (one query) before it joins: on the e2e's PGlite, queries run one at a time
 * in arrival order, so a request the test sends after this resolves is answered after the join.
 */
export function channelJoinSent(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('request', (request) => {
      if (
        request.method() === 'POST' &&
        request.url().includes('/socket.io/') &&
        request.postData()?.includes('"joinChannel"')
      )
        void request.response().then(() => resolve());
    });
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framesent', (frame) => {
        if (String(frame.payload).includes('"joinChannel"')) resolve();
      });
    });
  });
}

/** No CSS transition or animation running on the page (a drawer sliding, a dialog fading). */
export async function animationsDone(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length))
    .toBe(0);
}

/**
 * The screen is still, before a screenshot: nothing loading ("Carregando...", a progress bar), the
 * fonts in, no transition running.
 */
export async function settled(page: Page) {
  await expect(page.getByText('Carregando...')).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await animationsDone(page);
}

/** After a resize: the shell shows the layout of that width (the bottom bar below 900 px), still. */
export async function layoutSettled(page: Page, width: number) {
  const bar = page.getByTestId('bottom-bar');
  if (width < 900) await expect(bar).toBeVisible();
  else await expect(bar).toHaveCount(0);
  await animationsDone(page);
}

/**
 * Counts the page's API requests in flight; `idle()` waits until none is (a screen that has asked for
 * everything it shows). Install before the page navigates.
 */
export function trackApi(page: Page) {
  const inFlight = new Set<unknown>();
  const isApi = (url: string) => new URL(url).pathname.startsWith('/v1/');
  page.on('request', (request) => {
    if (isApi(request.url())) inFlight.add(request);
  });
  const done = (request: { url: () => string }) => inFlight.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { idle: () => expect.poll(() => inFlight.size).toBe(0) };
}

/**
 * A socket of the test's own on a shop's channel, as the web's (the public API key, a session token):
 * `change(resource, id)` resolves when the API signals that change. Proof that a signal went out,
 * for a test whose page must not (or not yet) receive it.
 */
export async function shopSocket(page: Page, token: string) {
  const me = await page.request.get('/v1/user/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  const clientId = (await me.json()).user.client.id as number;
  const baseURL = new URL(page.url() === 'about:blank' ? me.url() : page.url()).origin;
  const socket = io(baseURL, {
    path: '/socket.io',
    query: { key: 'balcao-public-key' },
    auth: { token },
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  expect(await socket.emitWithAck('joinChannel', `notifications_${clientId}`)).toEqual({ ok: true });
  return {
    change: (resource: string, id?: number) =>
      new Promise<void>((resolve) => {
        const listener = (change: { resource?: string; id?: number } | undefined) => {
          if (change?.resource !== resource || (id !== undefined && change.id !== id)) return;
          socket.off('change', listener);
          resolve();
        };
        socket.on('change', listener);
      }),
    close: () => socket.disconnect(),
  };
}
