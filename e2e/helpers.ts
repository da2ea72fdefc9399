import { USER_TYPE_IDS, USER_TYPE_SLUGS, type UserTypeId } from '@balcao/core/userTypes';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

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
