import { type AppRoute, ROUTES } from '@balcao/core/routes';
import { USER_TYPE_IDS, type UserTypeId } from '@balcao/core/userTypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.ts';
import { asUser } from '../../test/kit.ts';

/**
 * Every read and export of the API, with the pages (names in core's route table) whose screens call
 * it: the route must allow exactly the user types that may open one of those pages (their union).
 * A new read must be added here with its pages; the test fails until it is.
 * `session` = what every logged user loads with the session (home, menus).
 */
const READS: Record<string, readonly string[]> = {
  'GET /v1/user/me': ['session'],
  'GET /v1/settings-checklist/client/:clientId': ['session'],
  'GET /v1/shipping-settings/client/:clientId': ['session'],
  'GET /v1/whatsapp-instance/client/:clientId': ['session'],
  'GET /v1/coupon/client/:clientId': ['coupon'],
  'GET /v1/coupon/:id': ['coupon-edit'],
  'POST /v1/coupon/validate': ['sale-pdv'],
  'GET /v1/product-category/client/:clientId': ['product-category', 'product', 'product-edit'],
  'GET /v1/product-category/:id': ['product-category-edit'],
  'GET /v1/product-brand/client/:clientId': ['product-brand', 'product', 'product-edit'],
  'GET /v1/product-brand/:id': ['product-brand-edit'],
  'GET /v1/product-additional/client/:clientId': ['product-edit'],
  'GET /v1/product-additional/:id': ['product-edit'],
  'GET /v1/product/client/:clientId': [
    'product',
    'sale-pdv',
    'stock-entry',
    'budget-pdv',
    'sale-command-edit',
    'sale-waiter-pdv',
  ],
  'GET /v1/product/barcode/:code': [
    'sale-pdv',
    'stock-entry',
    'budget-pdv',
    'sale-command-edit',
    'sale-waiter-pdv',
  ],
  'GET /v1/product/:id': [
    'product-edit',
    'sale-pdv',
    'stock-entry',
    'budget-pdv',
    'sale-command-edit',
    'sale-waiter-pdv',
  ],
  // The waiter PDV keeps the same local product copy (issue 30 item 2: the garçom offline).
  'GET /v1/product/changes': ['sale-pdv', 'sale-waiter-pdv'],
  'GET /v1/customer/changes': ['sale-pdv'],
  'GET /v1/coupon/changes': ['sale-pdv'],
  'GET /v1/stock-setting/sale': ['sale-pdv'],
  'GET /v1/product/client/:clientId/export': ['product'],
  'GET /v1/cep/:cep': ['customer-new', 'customer-edit', 'settings-system-client'],
  'GET /v1/customer/client/:clientId': [
    'customer',
    'sale-pdv',
    'budget-pdv',
    'sale-command-new',
    'sale-waiter-pdv',
  ],
  'GET /v1/customer/client/:clientId/export': ['customer'],
  'GET /v1/customer/counters/client/:clientId': ['customer', 'campaign'],
  'GET /v1/customer/:id': ['customer-edit', 'sale-pdv', 'budget-pdv'],
  'GET /v1/customer/:id/store-credit': ['customer-edit', 'sale-pdv', 'budget-pdv'],
  'GET /v1/customer/tags/client/:clientId': [
    'customer',
    'customer-new',
    'customer-edit',
    'campaign-new',
    'campaign-edit',
  ],
  'GET /v1/user-address/customer/:customerId': ['customer-edit'],
  'GET /v1/user/client/:clientId': ['user'],
  'GET /v1/user/:id': ['user-edit'],
  'GET /v1/cash-register/current': ['sale-pdv', 'sale-pdv-close', 'budget-convert'],
  'GET /v1/cash-register/client/:clientId': ['sale-pdv-close'],
  'GET /v1/cash-register/:id': ['sale-pdv-close'],
  'GET /v1/sale/client/:clientId': ['sale'],
  'GET /v1/sale/client/:clientId/export': ['sale'],
  'GET /v1/sale/:id': ['sale-detail'],
  'GET /v1/sale/:id/returns': ['sale-detail'],
  'GET /v1/sale/customer-credit/:customerId': ['sale-pdv', 'budget-convert'],
  'GET /v1/stock-movement/client/:clientId': ['stock-entry', 'stock-exit', 'stock-fractionate'],
  'GET /v1/stock-movement/client/:clientId/export': ['stock-entry', 'stock-exit', 'stock-fractionate'],
  'GET /v1/stock-movement/product/:productId': ['stock-entry', 'stock-exit', 'stock-fractionate'],
  'GET /v1/stock-movement/low-stock/client/:clientId': ['stock-entry'],
  'GET /v1/stock-movement/fraction-ratio/client/:clientId': ['stock-fractionate'],
  'GET /v1/stock-setting/client/:clientId': ['stock-entry', 'stock-exit', 'stock-fractionate'],
  'GET /v1/settings/company': ['settings-system-client'],
  'GET /v1/settings/system': ['settings-system'],
  // Issue 36: the scale's label layout (the system page, and every screen with the PDV's items step).
  'GET /v1/settings/scale': ['settings-system', 'sale-pdv', 'budget-pdv', 'sale-delivery-new'],
  'GET /v1/product/weighed/:code': ['sale-pdv', 'budget-pdv', 'sale-delivery-new'],
  'GET /v1/label/pdf': ['product-label'],
  'GET /v1/label/commands': ['product-label'],
  'GET /v1/shop-export': ['settings-system'],
  'GET /v1/shop-export/deletion': ['settings-system'],
  // Issue 37: also read by Sistema's "Backup automático" section, which shows for the Administrador only.
  'GET /v1/backup': ['settings-backup'],
  'GET /v1/pix/account': ['settings-pix'],
  'GET /v1/pix/charge/:txid': ['sale-pdv'],
  'GET /v1/pix/pending': ['sale-pix-reconciliation'],
  'GET /v1/pix/reconciliation': ['sale-pix-reconciliation'],
  'GET /v1/pix/reconciliation/export': ['sale-pix-reconciliation'],
  'GET /v1/pix/refunds/:id': ['sale-detail'],
  'GET /v1/backup/:id/file': ['settings-backup'],
  // Issue 32: the fiscal page's reads, and a sale's note on the sale detail.
  'GET /v1/fiscal/settings': ['settings-fiscal'],
  'GET /v1/fiscal/epec-status': ['settings-fiscal'],
  'GET /v1/fiscal/status': ['sale-pdv'],
  'GET /v1/fiscal/month-zip': ['settings-fiscal'],
  'GET /v1/fiscal/notes': ['settings-fiscal'],
  'GET /v1/fiscal/notes/:id/xml': ['settings-fiscal', 'sale-detail'],
  'GET /v1/fiscal/notes/:id/danfe': ['settings-fiscal', 'sale-detail'],
  'GET /v1/fiscal/sale/:id': ['sale-detail'],
  // Also read by the product edit page's fiscal section, shown to the Administrador only.
  'GET /v1/fiscal/product/:id': ['settings-fiscal'],
  'GET /v1/payable/category': ['payable', 'payable-new', 'payable-edit', 'finance-categories'],
  'GET /v1/payable/bank-account': ['payable-edit', 'finance-bank-accounts', 'finance-cash-flow'],
  'GET /v1/payable': ['payable'],
  'GET /v1/payable/export': ['payable'],
  'GET /v1/payable/export/xlsx': ['payable'],
  'GET /v1/payable/:id': ['payable-edit'],
  // The bell's standing lines (every page, for who opens the payables) and the edit page's files.
  'GET /v1/payable/due': ['payable'],
  'GET /v1/payable/:id/attachment/:attachmentId': ['payable-edit'],
  'GET /v1/supplier': ['supplier', 'payable', 'payable-new', 'payable-edit'],
  'GET /v1/supplier/:id': ['supplier-edit'],
  'GET /v1/finance/cash-flow': ['finance-cash-flow'],
  'GET /v1/finance/cash-flow/csv': ['finance-cash-flow'],
  'GET /v1/finance/cash-flow/xlsx': ['finance-cash-flow'],
  'GET /v1/finance/cash-flow/pdf': ['finance-cash-flow'],
  'GET /v1/finance/day-close': ['finance-day-close'],
  'GET /v1/finance/day-close/csv': ['finance-day-close'],
  'GET /v1/finance/day-close/xlsx': ['finance-day-close'],
  'GET /v1/finance/day-close/pdf': ['finance-day-close'],
  'GET /v1/finance/dre': ['finance-dre'],
  'GET /v1/finance/dre/csv': ['finance-dre'],
  'GET /v1/finance/dre/pdf': ['finance-dre'],
  'GET /v1/finance/dre/entries': ['finance-dre'],
  'GET /v1/finance/dre/entries/csv': ['finance-dre'],
  'GET /v1/finance/dre/entries/xlsx': ['finance-dre'],
  'GET /v1/finance/dre/entries/pdf': ['finance-dre'],
  'GET /v1/finance/dre/xlsx': ['finance-dre'],
  'GET /v1/report/sales': ['finance-reports', 'sale-reports'],
  'GET /v1/report/sales/csv': ['finance-reports', 'sale-reports'],
  'GET /v1/report/sales/pdf': ['finance-reports', 'sale-reports'],
  'GET /v1/report/sales/xlsx': ['finance-reports', 'sale-reports'],
  'GET /v1/report/stock-turnover': ['finance-reports', 'sale-reports'],
  'GET /v1/report/stock-turnover/csv': ['finance-reports', 'sale-reports'],
  'GET /v1/report/stock-turnover/xlsx': ['finance-reports', 'sale-reports'],
  'GET /v1/report/stock-turnover/pdf': ['finance-reports', 'sale-reports'],
  'GET /v1/settings/working-hour': ['settings-working-hour'],
  'GET /v1/settings/working-hour/status': ['session'],
  'GET /v1/settings/discount-limit/me': ['sale-pdv'],
  'GET /v1/settings/receipt': ['sale-pdv', 'sale-detail'],
  // Issue 36: Etiquetas lists the profiles a paired agent prints (its label printer).
  'GET /v1/printing/settings': ['settings-printer', 'product-label'],
  // Issue 36: the print agents' cards on the printer page.
  'GET /v1/printing/agents': ['settings-printer', 'product-label'],
  // Issue 35: the kitchen display (its station picker with the targets, and a station's screen), and
  // the table orders waiting on the comanda board.
  'GET /v1/kds/stations': ['sale-kds'],
  'GET /v1/kds/station/:id': ['sale-kds'],
  'GET /v1/kds/settings': ['sale-kds'],
  'GET /v1/comanda/table-orders': ['sale-command'],
  // Issue 35: the tables' QR cards, printed from the comanda board.
  'GET /v1/comanda/table-qr/pdf': ['sale-command'],
  // Comandas (NOT_MKT); the waiter PDV (PDV) calls them only for users who may use comandas (can NOT_MKT).
  'GET /v1/comanda': ['sale-command', 'sale-command-edit'],
  'GET /v1/comanda/:id': ['sale-command-edit'],
  'GET /v1/comanda/menu': ['sale-command-edit'],
  'GET /v1/comanda/waiters': ['sale-command-new', 'sale-command-edit'],
  // Print stations run in any staff browser; senders (PDV, sale detail, printer page) follow their jobs.
  // The comandas show their tickets' print state (issue 30: the garçom has no PDV or sale pages).
  'GET /v1/printing/stations': ['settings-printer', 'sale-pdv', 'sale-detail', 'sale-command'],
  'GET /v1/printing/jobs': ['settings-printer', 'sale-pdv', 'sale-detail', 'sale-command'],
  'GET /v1/printing/job/:id': ['settings-printer', 'sale-pdv', 'sale-detail', 'sale-command'],
  'GET /v1/billing': ['settings-billing'],
  'GET /v1/billing/status': ['settings-billing'],
  'GET /v1/whatsapp/instance': ['settings-whatsapp'],
  'GET /v1/campaign-category/client/:clientId': ['campaign-category', 'campaign-new', 'campaign-edit'],
  'GET /v1/campaign-category/:id': ['campaign-category-edit'],
  'GET /v1/campaign/client/:clientId': ['campaign'],
  'GET /v1/campaign/:id': ['campaign-edit'],
  'GET /v1/campaign/:id/recipients': ['campaign-edit'],
  'GET /v1/campaign/:id/recipients/csv': ['campaign-edit'],
  'GET /v1/home': ['home'],
  'GET /v1/fee-simulator/table': ['bank-simulator'],
  'GET /v1/fee-simulator/table/:id': ['bank-simulator'],
  'GET /v1/fee-simulator/settings': ['bank-simulator'],
  'GET /v1/fee-simulator/meal-voucher': ['bank-simulator'],
  'GET /v1/fee-simulator/pdv': ['sale-pdv'],
  'GET /v1/shipping-settings/:id': ['settings-shipping-crud'],
  'GET /v1/shipping/melhor-envio': ['settings-melhor-envio'],
  'GET /v1/shipping/rodonaves': ['settings-rodonaves'],
  'GET /v1/budget': ['budget'],
  'GET /v1/budget/export': ['budget'],
  'GET /v1/budget/:id': ['budget-detail', 'budget-convert'],
  'GET /v1/budget/:id/pdf': ['budget-detail'],
  'GET /v1/budget/:id/pix-refunds': ['budget-detail'],
  'GET /v1/stock-reservation/product/:productId': [
    'product-edit',
    'stock-entry',
    'stock-exit',
    'stock-fractionate',
  ],
  'GET /v1/delivery/panel': ['sale-delivery', 'sale-delivery-settlement'],
  'GET /v1/delivery/orders/:id/pix': ['sale-delivery', 'driver-in-transit'],
  'GET /v1/marketplace/accounts': ['settings-marketplace'],
  'GET /v1/marketplace/orders': ['sale-marketplace'],
  'GET /v1/marketplace/mappings': ['sale-marketplace', 'settings-marketplace'],
  'GET /v1/delivery/driver/orders': [
    'driver-available',
    'driver-awaiting-collection',
    'driver-in-transit',
    'driver-delivered',
  ],
  'GET /v1/delivery/shift': [
    'driver-available',
    'driver-awaiting-collection',
    'driver-in-transit',
    'driver-delivered',
  ],
  'GET /v1/delivery/settlement/preview': ['sale-delivery-settlement'],
  'GET /v1/delivery/settlements': ['sale-delivery-settlement'],
  'GET /v1/delivery/settlements/:id': ['sale-delivery-settlement'],
};

const pageAllowed = (name: string): readonly UserTypeId[] => {
  if (name === 'session') return USER_TYPE_IDS;
  const page = ROUTES.find((route: AppRoute) => route.name === name);
  if (!page) throw new Error(`no page named ${name} in the route table`);
  if (page.allowed === 'public') throw new Error(`page ${name} is public`);
  return page.allowed;
};
const union = (pages: readonly string[]) =>
  [...new Set(pages.flatMap((name) => [...pageAllowed(name)]))].sort((a, b) => a - b);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('reads and exports allow exactly the user types of their pages', () => {
  it('names the pages of every read route of the API', () => {
    const reads = t.app.routes
      .filter((r) => r.method === 'GET' && r.url.startsWith('/v1/') && r.access !== 'public')
      .filter((r) => !r.url.startsWith('/v1/docs'))
      .map((r) => `${r.method} ${r.url}`);
    expect(reads.filter((key) => !(key in READS))).toEqual([]);
  });

  it('declares on each read exactly the union of its pages in the route table', () => {
    const byKey = new Map(t.app.routes.map((r) => [`${r.method} ${r.url}`, r]));
    const wrong: string[] = [];
    for (const [key, pages] of Object.entries(READS)) {
      const route = byKey.get(key);
      if (!route) {
        wrong.push(`${key}: not registered`);
        continue;
      }
      const declared = Array.isArray(route.access) ? [...route.access].sort((a, b) => a - b) : USER_TYPE_IDS;
      const expected = union(pages);
      if (JSON.stringify(declared) !== JSON.stringify(expected))
        wrong.push(`${key}: allows ${JSON.stringify(declared)}, its pages ${JSON.stringify(expected)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses the customer CSV (names, CPF, phone, address) to a Garçom, as the customer pages are', async () => {
    const { client, apis } = await asUser(t, [1, 5]);
    const [admin, waiter] = apis;
    expect((await admin.get(`/customer/client/${client.id}/export`)).statusCode).toBe(200);
    const denied = await waiter.get(`/customer/client/${client.id}/export`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({
      code: 'forbidden',
      message: 'Você não tem permissão para esta ação',
    });
  });
});
