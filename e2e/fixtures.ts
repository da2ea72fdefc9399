import { expect, type Page } from '@playwright/test';
import { apiLogin, demoEmail, SE_ADDRESS } from './helpers';

/** Data the specs arrange through the API, shared by the specs that need the same things. */

/** An EAN-13 with its check digit, from 12 digits. */
export function ean13(base12: string): string {
  const digits = base12.split('').map(Number);
  const sum = digits.reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
  return `${base12}${(10 - (sum % 10)) % 10}`;
}

/**
 * A product with a barcode and a customer with a phone and an address, created as the Administrador.
 * `categoryId`: the product's category (a sector's, for the kitchen).
 */
export async function arrangeDelivery(page: Page, n: number, categoryId?: number) {
  const stamp = Date.now().toString().slice(-7);
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const barcode = ean13(`201${stamp}0${n}`);
  const product = await page.request.post('/v1/product', {
    headers,
    data: { name: `Pizza ${stamp}-${n}`, salePriceCents: 4500, barcode, stock: 20, categoryId },
  });
  expect(product.status(), await product.text()).toBe(201);
  const customerName = `Cliente Entrega ${stamp}-${n}`;
  const customer = await page.request.post('/v1/customer', {
    headers,
    data: {
      name: customerName,
      phone: '11987654321',
      addresses: [SE_ADDRESS],
    },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const panel = await (await page.request.get('/v1/delivery/panel', { headers })).json();
  const driver = panel.drivers.find((d: { userTypeId: number }) => d.userTypeId === 10);
  expect(driver).toBeTruthy();
  return {
    barcode,
    productName: `Pizza ${stamp}-${n}`,
    customerName,
    driver: driver as { id: number; name: string },
  };
}
