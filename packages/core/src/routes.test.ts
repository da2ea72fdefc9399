import { describe, expect, it } from 'vitest';
import {
  ACTION,
  ALL,
  type AppRoute,
  BACKOFFICE,
  COUNTER,
  can,
  canOpen,
  DRIVERS,
  findRoute,
  homeFor,
  isAllowed,
  MENU_GROUPS,
  type MenuGroup,
  menuFor,
  NOT_MKT,
  PDV,
  pageTitle,
  ROUTES,
  SHIPPING,
  STAFF,
  showsPdvInBottomBar,
  TAKES_DELIVERIES,
  WRITE,
} from './routes.ts';
import { USER_TYPE_IDS } from './userTypes.ts';

const ALL_FLAGS = { saleCommand: true, stockManagement: true, checkIsOpen: true };
const NO_FLAGS = { saleCommand: false, stockManagement: false, checkIsOpen: false };
const route = (name: string) => {
  const found = ROUTES.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};
const groupsOf = (type: number, flags = ALL_FLAGS) => menuFor(type, flags).map((entry) => entry.group);
const menuLinks = (type: number, flags = ALL_FLAGS) =>
  menuFor(type, flags).flatMap((entry) => entry.items.map((item) => item.link));

describe('route table', () => {
  it('has unique names and links, titles, and a known menu group on each menu item', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.link)).size).toBe(ROUTES.length);
    for (const r of ROUTES) {
      expect(r.link, r.name).toMatch(/^\/[a-z0-9/-]*$/);
      expect(r.title.trim(), r.name).not.toBe('');
      if (r.menuGroup) expect(MENU_GROUPS).toContain(r.menuGroup);
      expect(r.isPublic).toBe(r.allowed === 'public');
    }
  });

  it('points every FAB at a route of the table', () => {
    for (const r of ROUTES.filter((x) => x.fab)) {
      expect(findRoute(r.fab!)?.link, r.name).toBe(r.fab);
    }
  });

  it('keeps the permission sets of ROUTES.md', () => {
    expect(ALL).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(STAFF).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(BACKOFFICE).toEqual([1, 2, 3, 4, 6, 7, 8, 9]);
    expect(PDV).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    expect(NOT_MKT).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(SHIPPING).toEqual(BACKOFFICE.filter((t) => NOT_MKT.includes(t)));
    expect(WRITE.users).toEqual([1, 2]);
    expect(WRITE.billing).toEqual([1]);
  });

  it('titles pages "{title} | Balcão"', () => {
    expect(pageTitle(route('home').title)).toBe('Início | Balcão');
    expect(pageTitle('Login')).toBe('Login | Balcão');
  });

  it('has the public pages of the spec', () => {
    const publicLinks = ROUTES.filter((r) => r.isPublic).map((r) => r.link);
    expect(publicLinks.sort()).toEqual(
      // The budget approval page (issue 17) and the table's QR menu (issue 35) are public on purpose:
      // their customers have no login.
      [
        '/login',
        '/logout',
        '/criar-conta',
        '/not-have-permission',
        '/404',
        '/hello',
        '/orcamento',
        '/mesa',
      ].sort(),
    );
  });
});

describe('can', () => {
  it('is true only for a user type in the set, false without a user', () => {
    expect(can(1, WRITE.users)).toBe(true);
    expect(can(3, WRITE.users)).toBe(false);
    expect(can(undefined, ALL)).toBe(false);
    expect(can(99, ALL)).toBe(false);
  });

  it('keeps the action sets of ROUTES.md', () => {
    expect(ACTION.settleReceivables).toEqual([1, 2, 3, 4, 7, 8]);
    expect(ACTION.approve).toEqual([1, 2]);
    expect(ACTION.registerReports).toEqual([1, 2, 7]);
  });

  it('keeps the page sets of ROUTES.md, written by name', () => {
    expect(ALL).toEqual(USER_TYPE_IDS);
    expect(STAFF).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(BACKOFFICE).toEqual([1, 2, 3, 4, 6, 7, 8, 9]);
    expect(PDV).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    expect(NOT_MKT).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(SHIPPING).toEqual([1, 2, 3, 4, 6, 7, 8]);
    expect(DRIVERS).toEqual([10, 11]);
    expect(TAKES_DELIVERIES).toEqual([10]);
    expect(ACTION.serveTables).toEqual([5]);
    expect(WRITE.catalog).toEqual([1, 2, 6]);
    expect(WRITE.customers).toEqual([1, 2, 3, 4, 7, 8, 9]);
    expect(WRITE.budgets).toEqual([1, 2, 3, 4, 7, 8]);
  });

  it('gives every write or action set only types that may open the staff pages', () => {
    for (const set of [...Object.values(WRITE), ...Object.values(ACTION)]) {
      for (const id of set) expect(can(id, STAFF)).toBe(true);
    }
  });
});

describe('findRoute', () => {
  it('matches equal routes exactly, ignoring a trailing slash', () => {
    expect(findRoute('/dashboard')?.name).toBe('home');
    expect(findRoute('/dashboard/')?.name).toBe('home');
    expect(findRoute('/dashboard/customer')?.name).toBe('customer');
    expect(findRoute('/dashboard/customer/new')?.name).toBe('customer-new');
    expect(findRoute('/dashboard/sale/pdv/close')?.name).toBe('sale-pdv-close');
  });

  it('does not extend an equal route to deeper paths', () => {
    expect(findRoute('/dashboard/customer/new/1')).toBeUndefined();
    expect(findRoute('/dashboard/coupon/new/x')).toBeUndefined();
    expect(findRoute('/dashboard/nao-existe')).toBeUndefined();
    expect(findRoute('/')).toBeUndefined();
  });

  it('matches prefix routes on the link itself and below it, segment by segment', () => {
    expect(findRoute('/dashboard/customer/edit')?.name).toBe('customer-edit');
    expect(findRoute('/dashboard/customer/edit/42')?.name).toBe('customer-edit');
    expect(findRoute('/dashboard/coupon/edit/7/')?.name).toBe('coupon-edit');
    expect(findRoute('/dashboard/sale/detail/99')?.name).toBe('sale-detail');
    expect(findRoute('/dashboard/sale/command/edit/3')?.name).toBe('sale-command-edit');
    expect(findRoute('/dashboard/sale/create-simple/12')?.name).toBe('sale-create-simple');
    // A longer word is not below the prefix.
    expect(findRoute('/dashboard/customer/editar')).toBeUndefined();
  });

  it('prefers an exact match, then the longest prefix', () => {
    const table: AppRoute[] = [
      { name: 'a', link: '/a', title: 'A', allowed: [1], match: 'prefix', isPublic: false },
      { name: 'ab', link: '/a/b', title: 'AB', allowed: [1], match: 'prefix', isPublic: false },
      { name: 'abc', link: '/a/b/c', title: 'ABC', allowed: [1], match: 'equal', isPublic: false },
    ];
    expect(findRoute('/a/x', table)?.name).toBe('a');
    expect(findRoute('/a/b/x/y', table)?.name).toBe('ab');
    expect(findRoute('/a/b', table)?.name).toBe('ab');
    expect(findRoute('/a/b/c', table)?.name).toBe('abc');
    expect(findRoute('/a/b/c/d', table)?.name).toBe('ab');
    // Order of the table does not matter.
    expect(findRoute('/a/b/x', [...table].reverse())?.name).toBe('ab');
  });
});

describe('canOpen', () => {
  it('opens public routes to anyone, logged or not', () => {
    expect(canOpen(route('login'), undefined, null)).toBe(true);
    expect(canOpen(route('not-found'), 10, NO_FLAGS)).toBe(true);
  });

  it('closes every private route to an anonymous visitor', () => {
    for (const r of ROUTES.filter((x) => !x.isPublic))
      expect(canOpen(r, undefined, ALL_FLAGS), r.name).toBe(false);
  });

  it('follows the allowed types', () => {
    expect(canOpen(route('customer'), 1, ALL_FLAGS)).toBe(true);
    expect(canOpen(route('customer'), 5, ALL_FLAGS)).toBe(false);
    expect(canOpen(route('sale-pdv'), 6, ALL_FLAGS)).toBe(false);
    expect(canOpen(route('sale-pdv'), 5, ALL_FLAGS)).toBe(false);
    expect(canOpen(route('sale-waiter-pdv'), 5, ALL_FLAGS)).toBe(true);
    expect(canOpen(route('driver-available'), 10, ALL_FLAGS)).toBe(true);
    expect(canOpen(route('driver-available'), 11, ALL_FLAGS)).toBe(false);
    expect(canOpen(route('driver-in-transit'), 11, ALL_FLAGS)).toBe(true);
    expect(canOpen(route('driver-in-transit'), 1, ALL_FLAGS)).toBe(false);
    expect(isAllowed(route('home'), 11)).toBe(true);
  });

  it('closes a flagged route when its flag is off or unknown', () => {
    const flagged = {
      saleCommand: ['sale-command', 'sale-command-new', 'sale-command-edit'],
      stockManagement: ['stock-entry', 'stock-exit', 'stock-fractionate'],
      checkIsOpen: ['settings-working-hour'],
    } as const;
    for (const [flag, names] of Object.entries(flagged)) {
      for (const name of names) {
        expect(route(name).flag).toBe(flag);
        expect(canOpen(route(name), 1, ALL_FLAGS), name).toBe(true);
        expect(canOpen(route(name), 1, { ...ALL_FLAGS, [flag]: false }), name).toBe(false);
        expect(canOpen(route(name), 1, null), name).toBe(false);
        expect(canOpen(route(name), 1, {}), name).toBe(false);
      }
    }
    // A flag on does not open a route the type may not see.
    expect(canOpen(route('sale-command'), 9, ALL_FLAGS)).toBe(false);
    // Routes without a flag do not care about the checklist.
    expect(canOpen(route('customer'), 1, null)).toBe(true);
  });
});

describe('menuFor', () => {
  const BACKOFFICE_GROUPS: MenuGroup[] = [
    'Clientes',
    'Campanhas',
    'Produtos',
    'Estoque',
    'Usuários',
    'Configurações',
  ];

  it('shows an Administrador every group, in the spec order, with all flags on', () => {
    expect(groupsOf(1)).toEqual([...MENU_GROUPS]);
  });

  it('hides groups and items whose flag is off', () => {
    expect(groupsOf(1, NO_FLAGS)).not.toContain('Estoque');
    expect(menuLinks(1, NO_FLAGS)).not.toContain('/dashboard/sale/command');
    expect(menuLinks(1, NO_FLAGS)).not.toContain('/dashboard/settings/working-hour');
    expect(menuLinks(1, ALL_FLAGS)).toEqual(
      expect.arrayContaining(['/dashboard/sale/command', '/dashboard/settings/working-hour']),
    );
    expect(groupsOf(1, { ...NO_FLAGS, stockManagement: true })).toContain('Estoque');
  });

  it('shows a Garçom the waiter PDV and the comandas only (issue 30: PRODUCT.md over ROUTES.md)', () => {
    const groups = groupsOf(5);
    for (const group of BACKOFFICE_GROUPS) expect(groups).not.toContain(group);
    expect(groups).toEqual(['Vendas']);
    expect(menuLinks(5)).toEqual(['/dashboard/sale/waiter-pdv', '/dashboard/sale/command']);
    for (const name of [
      'sale',
      'sale-detail',
      'sale-pdv',
      'sale-pdv-close',
      'sale-create-simple',
      'sale-delivery',
      'bank-simulator',
      'budget',
      'budget-pdv',
      'coupon',
      'freight-melhor-envio',
      'freight-rodonaves',
    ])
      expect(canOpen(route(name), 5, ALL_FLAGS), name).toBe(false);
    expect(COUNTER).toEqual([1, 2, 3, 4, 7, 8, 9]);
  });

  it('shows Marketing no Comandas, Delivery or fee simulator, even with comandas on', () => {
    const links = menuLinks(9);
    expect(links).not.toContain('/dashboard/sale/command');
    expect(links).not.toContain('/dashboard/sale/delivery');
    expect(links).not.toContain('/dashboard/bank/simulator');
    expect(links).not.toContain('/dashboard/settings/shipping-settings');
    expect(groupsOf(9)).toEqual(expect.arrayContaining(['Clientes', 'Campanhas', 'Cupons', 'Vendas']));
  });

  it('shows an Estoquista the stock but no PDV or freight quotes', () => {
    const links = menuLinks(6);
    expect(groupsOf(6)).toContain('Estoque');
    expect(groupsOf(6)).not.toContain('Frete');
    expect(links).not.toContain('/dashboard/sale/pdv');
    expect(links).toContain('/dashboard/sale');
  });

  it('gives drivers no menu group', () => {
    expect(menuFor(10, ALL_FLAGS)).toEqual([]);
    expect(menuFor(11, ALL_FLAGS)).toEqual([]);
  });

  it('lists only routes the type can open, each once', () => {
    for (const type of USER_TYPE_IDS) {
      const items = menuFor(type, ALL_FLAGS).flatMap((entry) => entry.items);
      expect(new Set(items.map((item) => item.link)).size).toBe(items.length);
      for (const item of items) expect(canOpen(item, type, ALL_FLAGS), `${type} ${item.link}`).toBe(true);
      for (const entry of menuFor(type, ALL_FLAGS)) expect(entry.items.length).toBeGreaterThan(0);
    }
  });
});

describe('homeFor and the bottom bar', () => {
  it('sends drivers to their first page and everyone else to /dashboard', () => {
    expect(homeFor(10)).toBe('/dashboard/driver/available');
    expect(homeFor(11)).toBe('/dashboard/driver/awaiting-collection');
    for (const type of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(homeFor(type)).toBe('/dashboard');
  });

  it('lands every type on a page it can open', () => {
    for (const type of USER_TYPE_IDS) {
      const home = findRoute(homeFor(type));
      expect(home && canOpen(home, type, NO_FLAGS), `type ${type}`).toBe(true);
    }
  });

  it('hides the PDV item from the types the PDV is closed to', () => {
    expect(USER_TYPE_IDS.filter((type) => !showsPdvInBottomBar(type))).toEqual([6, 10, 11]);
  });
});
