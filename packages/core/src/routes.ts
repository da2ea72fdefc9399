import { type ChecklistFlag, type SettingsChecklist, UserType, type UserTypeId } from './userTypes.ts';

/**
 * The one route table (docs: ROUTES.md). The web router, menu, bottom bar, FAB,
 * page titles and route guards read it; the API reads the same permission sets.
 */
const {
  ADMIN,
  MANAGER,
  SELLER,
  CASHIER,
  WAITER,
  STOCKIST,
  FINANCIAL,
  ATTENDANT,
  MARKETING,
  DRIVER,
  PARTNER_DRIVER,
} = UserType;

/** The shop's people who are not drivers. */
export const STAFF: readonly UserTypeId[] = [
  ADMIN,
  MANAGER,
  SELLER,
  CASHIER,
  WAITER,
  STOCKIST,
  FINANCIAL,
  ATTENDANT,
  MARKETING,
];
/** Drivers (the driver area): the shop's Entregador and the Entregador parceiro. */
export const DRIVERS: readonly UserTypeId[] = [DRIVER, PARTNER_DRIVER];
/**
 * Drivers who take an order from the available list (and see that list): the shop's own Entregador.
 * A partner works the orders the shop hands him (issue 18).
 */
export const TAKES_DELIVERIES: readonly UserTypeId[] = [DRIVER];
export const ALL: readonly UserTypeId[] = [...STAFF, ...DRIVERS];
/** The staff but the waiter. */
export const BACKOFFICE: readonly UserTypeId[] = STAFF.filter((t) => t !== WAITER);
/** The staff but the stockist. */
export const PDV: readonly UserTypeId[] = STAFF.filter((t) => t !== STOCKIST);
/** The staff but marketing. */
export const NOT_MKT: readonly UserTypeId[] = STAFF.filter((t) => t !== MARKETING);
/**
 * The kitchen display (issue 35): the staff but marketing and the garçom. The garçom's menu stays the
 * waiter PDV and the comandas (issue 30), where he sees "Pronto"; the kitchen's tablet is logged in
 * by the counter or the manager.
 */
export const KITCHEN: readonly UserTypeId[] = STAFF.filter((t) => t !== WAITER && t !== MARKETING);
/** The staff but the waiter and marketing (shipping settings, the delivery panel, the fee simulator). */
export const SHIPPING: readonly UserTypeId[] = STAFF.filter((t) => t !== WAITER && t !== MARKETING);
/**
 * The counter (issue 30, PRODUCT.md): the PDV's people but the garçom. The counter PDV, its register
 * and close, quick sales, freight quotes and coupons at checkout; the garçom works the waiter PDV and
 * the comandas, holds no register and sees only his own figures.
 */
export const COUNTER: readonly UserTypeId[] = PDV.filter((t) => t !== WAITER);
/** The shop's money (issue 34, ROUTES.md): contas a pagar, suppliers, cash flow, DRE, reports. */
export const FINANCE: readonly UserTypeId[] = [ADMIN, MANAGER, FINANCIAL];

/** Narrower write roles (ROUTES.md: "Seeing a page is not the same as changing what it shows"). */
export const WRITE = {
  catalog: [ADMIN, MANAGER, STOCKIST],
  stock: [ADMIN, MANAGER, STOCKIST],
  customers: [ADMIN, MANAGER, SELLER, CASHIER, FINANCIAL, ATTENDANT, MARKETING],
  coupons: [ADMIN, MANAGER, MARKETING],
  campaigns: [ADMIN, MANAGER, MARKETING],
  users: [ADMIN, MANAGER],
  settings: [ADMIN, MANAGER],
  billing: [ADMIN],
  /** System preferences (ROUTES.md: "billing and system: 1 only"). */
  system: [ADMIN],
  /** Selling at the counter and receiving money (a register of one's own): not the garçom (issue 30). */
  sales: COUNTER,
  delivery: [ADMIN, MANAGER, ATTENDANT],
  /** The shop's card rate tables and the fee simulator settings (issue 20). */
  fees: [ADMIN, MANAGER, FINANCIAL],
  /** Budgets (issue 17): who sells or quotes at the counter, and Financeiro (PRODUCT.md). */
  budgets: [ADMIN, MANAGER, SELLER, CASHIER, FINANCIAL, ATTENDANT],
  /** Payables, suppliers and their categories (issue 34): the people who see the Financeiro pages. */
  finance: [ADMIN, MANAGER, FINANCIAL],
} as const satisfies Record<string, readonly UserTypeId[]>;

/** Actions that are neither opening a page nor writing a resource. */
export const ACTION = {
  /** Receive a crediário installment: the counter and the back office, not waiters or marketing. */
  settleReceivables: [ADMIN, MANAGER, SELLER, CASHIER, FINANCIAL, ATTENDANT],
  /** Cancel a sale or take a sangria without an approval, and approve those of the others. */
  approve: [ADMIN, MANAGER],
  /** Every register of the client (reports), not only one's own. */
  registerReports: [ADMIN, MANAGER, FINANCIAL],
  /** The shop's sales figures on the home (today, month, methods, best sellers). */
  shopFigures: [ADMIN, MANAGER, FINANCIAL],
  /** Confirm a driver's settlement (acerto): the cash handed over (issue 18). */
  settleDrivers: [ADMIN, MANAGER],
  /** Serve tables: a comanda this user opens is theirs (the waiter field starts on them). */
  serveTables: [WAITER],
  /**
   * Who may be a tab's garçom (issue 30: the picker offers only them): the garçons, and the owner or
   * manager who covers the floor. Not the counter, stock, finance or marketing people.
   */
  takeTabs: [WAITER, ADMIN, MANAGER],
  /** "Abrir gaveta" without a sale or a sangria (issue 36; logged on the register): not Financeiro, Atendente or Marketing. */
  openDrawer: [ADMIN, MANAGER, SELLER, CASHIER],
} as const satisfies Record<string, readonly UserTypeId[]>;

/**
 * The one permission check, for the web and the API: is this user type in the set? Sets are the page
 * sets above (ALL, STAFF, ...), WRITE.x and ACTION.x; no other list of user types exists.
 */
export function can(userTypeId: number | undefined, set: readonly UserTypeId[]): boolean {
  return userTypeId !== undefined && (set as readonly number[]).includes(userTypeId);
}

export const MENU_GROUPS = [
  'Clientes',
  'Campanhas',
  'Produtos',
  'Vendas',
  'Orçamentos',
  'Estoque',
  'Cupons',
  'Frete',
  'Usuários',
  'Configurações',
  'Financeiro',
] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

export type AppRoute = {
  /** Stable key, also used by the web to pick the page component. */
  name: string;
  link: string;
  title: string;
  /** 'public' routes need no session. */
  allowed: 'public' | readonly UserTypeId[];
  match: 'equal' | 'prefix';
  isPublic: boolean;
  menuGroup?: MenuGroup;
  /** Menu label when it differs from the title. */
  menuLabel?: string;
  flag?: ChecklistFlag;
  /** Floating add button target on this (list) page. */
  fab?: string;
  /**
   * A page that only creates (a list's /new): who may use it, narrower than who sees the list. Readers
   * get neither its floating add button nor the page (`canUse`).
   */
  write?: readonly UserTypeId[];
  /** Optional base URL of the area's host (DESIGN.md: per-area hosts are a deployment detail). */
  baseUrl?: string;
};

type RouteInit = Omit<AppRoute, 'match' | 'isPublic'> & { match?: 'equal' | 'prefix' };

const r = (init: RouteInit): AppRoute => ({
  match: 'equal',
  ...init,
  isPublic: init.allowed === 'public',
});

/** A list + /new + /edit (prefix) triple of a back-office resource. */
function crud(
  name: string,
  base: string,
  title: string,
  newTitle: string,
  editTitle: string,
  allowed: readonly UserTypeId[],
  menuGroup: MenuGroup,
  write?: readonly UserTypeId[],
): AppRoute[] {
  return [
    r({ name, link: base, title, allowed, menuGroup, fab: `${base}/new` }),
    r({ name: `${name}-new`, link: `${base}/new`, title: newTitle, allowed, write }),
    r({ name: `${name}-edit`, link: `${base}/edit`, title: editTitle, allowed, match: 'prefix' }),
  ];
}

export const ROUTES: readonly AppRoute[] = [
  r({ name: 'login', link: '/login', title: 'Login', allowed: 'public' }),
  r({ name: 'logout', link: '/logout', title: 'Saindo', allowed: 'public' }),
  r({ name: 'create-account', link: '/criar-conta', title: 'Criar conta', allowed: 'public' }),
  r({ name: 'not-have-permission', link: '/not-have-permission', title: 'Sem permissão', allowed: 'public' }),
  r({ name: 'not-found', link: '/404', title: 'Página não encontrada', allowed: 'public' }),
  r({ name: 'hello', link: '/hello', title: 'Hello', allowed: 'public' }),
  /** A budget's approval page for its customer (issue 17): the token in the path is the only key. */
  // Issue 35: the QR-code menu of a table (public; the token names the table).
  r({ name: 'table-menu', link: '/mesa', title: 'Cardápio da mesa', allowed: 'public', match: 'prefix' }),
  r({ name: 'budget-approval', link: '/orcamento', title: 'Orçamento', allowed: 'public', match: 'prefix' }),
  r({ name: 'home', link: '/dashboard', title: 'Início', allowed: ALL }),
  r({
    name: 'driver-available',
    link: '/dashboard/driver/available',
    title: 'Entregas disponíveis',
    allowed: TAKES_DELIVERIES,
  }),
  r({
    name: 'driver-awaiting-collection',
    link: '/dashboard/driver/awaiting-collection',
    title: 'Aguardando coleta',
    allowed: DRIVERS,
  }),
  r({
    name: 'driver-in-transit',
    link: '/dashboard/driver/in-transit',
    title: 'Em trânsito',
    allowed: DRIVERS,
  }),
  r({ name: 'driver-delivered', link: '/dashboard/driver/delivered', title: 'Entregues', allowed: DRIVERS }),
  ...crud(
    'customer',
    '/dashboard/customer',
    'Clientes',
    'Novo cliente',
    'Editar cliente',
    BACKOFFICE,
    'Clientes',
    WRITE.customers,
  ),
  ...crud(
    'campaign',
    '/dashboard/campaign',
    'Campanhas',
    'Nova campanha',
    'Editar campanha',
    BACKOFFICE,
    'Campanhas',
    WRITE.campaigns,
  ),
  ...crud(
    'campaign-category',
    '/dashboard/campaign-category',
    'Categorias de campanha',
    'Nova categoria de campanha',
    'Editar categoria de campanha',
    BACKOFFICE,
    'Campanhas',
    WRITE.campaigns,
  ),
  ...crud(
    'product',
    '/dashboard/product',
    'Produtos',
    'Novo produto',
    'Editar produto',
    BACKOFFICE,
    'Produtos',
    WRITE.catalog,
  ),
  ...crud(
    'product-category',
    '/dashboard/product-category',
    'Categorias',
    'Nova categoria',
    'Editar categoria',
    BACKOFFICE,
    'Produtos',
    WRITE.catalog,
  ),
  ...crud(
    'product-brand',
    '/dashboard/product-brand',
    'Marcas',
    'Nova marca',
    'Editar marca',
    BACKOFFICE,
    'Produtos',
    WRITE.catalog,
  ),
  // Issue 36: price and barcode labels (A4 PDF, ZPL, EPL).
  r({
    name: 'product-label',
    link: '/dashboard/product-label',
    title: 'Etiquetas',
    allowed: BACKOFFICE,
    menuGroup: 'Produtos',
  }),
  r({
    name: 'sale',
    link: '/dashboard/sale',
    title: 'Vendas',
    allowed: BACKOFFICE,
    menuGroup: 'Vendas',
    fab: '/dashboard/sale/pdv',
  }),
  r({ name: 'sale-pdv', link: '/dashboard/sale/pdv', title: 'PDV', allowed: COUNTER, menuGroup: 'Vendas' }),
  r({
    name: 'sale-waiter-pdv',
    link: '/dashboard/sale/waiter-pdv',
    title: 'PDV Garçom',
    allowed: PDV,
    menuGroup: 'Vendas',
  }),
  r({
    name: 'sale-pdv-close',
    link: '/dashboard/sale/pdv/close',
    title: 'Fechar caixa',
    allowed: COUNTER,
    menuGroup: 'Vendas',
  }),
  r({
    name: 'sale-detail',
    link: '/dashboard/sale/detail',
    title: 'Detalhe da venda',
    allowed: BACKOFFICE,
    match: 'prefix',
  }),
  r({
    name: 'sale-create-simple',
    link: '/dashboard/sale/create-simple',
    title: 'Venda simples',
    allowed: COUNTER,
    match: 'prefix',
    menuGroup: 'Vendas',
  }),
  r({
    name: 'sale-delivery',
    link: '/dashboard/sale/delivery',
    title: 'Delivery',
    allowed: SHIPPING,
    menuGroup: 'Vendas',
  }),
  r({
    name: 'sale-delivery-new',
    link: '/dashboard/sale/delivery/new',
    title: 'Novo pedido de entrega',
    allowed: SHIPPING,
    write: WRITE.delivery,
  }),
  r({
    // Issue 35: orders from iFood and Open Delivery apps waiting for a confirmation or a mapping.
    name: 'sale-marketplace',
    link: '/dashboard/sale/marketplace',
    title: 'Pedidos de marketplace',
    allowed: SHIPPING,
    menuGroup: 'Vendas',
  }),
  r({
    name: 'sale-delivery-settlement',
    link: '/dashboard/sale/delivery/settlement',
    title: 'Acerto de entregadores',
    allowed: WRITE.delivery,
  }),
  r({
    name: 'sale-command',
    link: '/dashboard/sale/command',
    title: 'Comandas',
    allowed: NOT_MKT,
    menuGroup: 'Vendas',
    flag: 'saleCommand',
    fab: '/dashboard/sale/command/new',
  }),
  r({
    name: 'sale-command-new',
    link: '/dashboard/sale/command/new',
    title: 'Comanda',
    allowed: NOT_MKT,
    flag: 'saleCommand',
  }),
  r({
    name: 'sale-command-edit',
    link: '/dashboard/sale/command/edit',
    title: 'Comanda',
    allowed: NOT_MKT,
    flag: 'saleCommand',
    match: 'prefix',
  }),
  r({
    // Issue 35: the kitchen display, a screen per production station (/dashboard/sale/kds/{sectorId}).
    name: 'sale-kds',
    link: '/dashboard/sale/kds',
    title: 'Cozinha (KDS)',
    allowed: KITCHEN,
    menuGroup: 'Vendas',
    flag: 'saleCommand',
    match: 'prefix',
  }),
  r({
    name: 'bank-simulator',
    link: '/dashboard/bank/simulator',
    title: 'Simulador de taxas',
    allowed: SHIPPING,
    menuGroup: 'Vendas',
  }),
  r({
    name: 'budget',
    link: '/dashboard/budget',
    title: 'Orçamentos',
    allowed: BACKOFFICE,
    menuGroup: 'Orçamentos',
    fab: '/dashboard/budget/pdv',
  }),
  r({
    name: 'budget-pdv',
    link: '/dashboard/budget/pdv',
    title: 'Novo orçamento',
    allowed: BACKOFFICE,
    menuGroup: 'Orçamentos',
  }),
  r({
    name: 'budget-detail',
    link: '/dashboard/budget/detail',
    title: 'Orçamento',
    allowed: BACKOFFICE,
    match: 'prefix',
  }),
  /** Converting a budget into a sale (issue 17): the PDV's payment step, for who writes budgets and sells. */
  r({
    name: 'budget-convert',
    link: '/dashboard/budget/convert',
    title: 'Converter orçamento',
    allowed: WRITE.budgets,
    match: 'prefix',
  }),
  r({
    name: 'stock-entry',
    link: '/dashboard/stock-movement/entry',
    title: 'Entrada de estoque',
    allowed: BACKOFFICE,
    menuGroup: 'Estoque',
    flag: 'stockManagement',
  }),
  r({
    name: 'stock-exit',
    link: '/dashboard/stock-movement/exit',
    title: 'Saída de estoque',
    allowed: BACKOFFICE,
    menuGroup: 'Estoque',
    flag: 'stockManagement',
  }),
  r({
    name: 'stock-fractionate',
    link: '/dashboard/stock-movement/fractionate',
    title: 'Fracionar',
    allowed: BACKOFFICE,
    menuGroup: 'Estoque',
    flag: 'stockManagement',
  }),
  r({
    name: 'coupon',
    link: '/dashboard/coupon',
    title: 'Cupons',
    allowed: BACKOFFICE,
    menuGroup: 'Cupons',
    fab: '/dashboard/coupon/new',
  }),
  r({
    name: 'coupon-new',
    link: '/dashboard/coupon/new',
    title: 'Novo cupom',
    allowed: BACKOFFICE,
    write: WRITE.coupons,
  }),
  r({
    name: 'coupon-edit',
    link: '/dashboard/coupon/edit',
    title: 'Editar cupom',
    allowed: BACKOFFICE,
    match: 'prefix',
  }),
  r({
    name: 'freight-melhor-envio',
    link: '/dashboard/freight/melhor-envio',
    title: 'Frete Melhor Envio',
    allowed: COUNTER,
    menuGroup: 'Frete',
  }),
  r({
    name: 'freight-rodonaves',
    link: '/dashboard/freight/rodonaves',
    title: 'Frete Rodonaves',
    allowed: COUNTER,
    menuGroup: 'Frete',
  }),
  ...crud(
    'user',
    '/dashboard/user',
    'Usuários',
    'Novo usuário',
    'Editar usuário',
    BACKOFFICE,
    'Usuários',
    WRITE.users,
  ),
  r({
    name: 'settings-printer',
    link: '/dashboard/settings/printer',
    title: 'Impressora',
    allowed: BACKOFFICE,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-working-hour',
    link: '/dashboard/settings/working-hour',
    title: 'Horário de funcionamento',
    allowed: BACKOFFICE,
    menuGroup: 'Configurações',
    flag: 'checkIsOpen',
  }),
  r({
    name: 'settings-shipping',
    link: '/dashboard/settings/shipping-settings',
    title: 'Configurações de entrega',
    allowed: SHIPPING,
    menuGroup: 'Configurações',
    fab: '/dashboard/settings/shipping-settings/crud',
  }),
  r({
    name: 'settings-shipping-crud',
    link: '/dashboard/settings/shipping-settings/crud',
    title: 'Regra de entrega',
    allowed: SHIPPING,
  }),
  r({
    name: 'settings-melhor-envio',
    link: '/dashboard/settings/melhor-envio/settings',
    title: 'Melhor Envio',
    allowed: SHIPPING,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-rodonaves',
    link: '/dashboard/settings/rodonaves',
    title: 'Rodonaves',
    allowed: SHIPPING,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-whatsapp',
    link: '/dashboard/settings/whatsapp',
    title: 'WhatsApp',
    allowed: BACKOFFICE,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-system-client',
    link: '/dashboard/settings/system-client',
    title: 'Dados da empresa',
    allowed: BACKOFFICE,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-billing',
    link: '/dashboard/settings/billing',
    title: 'Assinatura',
    // Issue 14: billing is the Administrador's alone (reading too), so the page is closed to the rest.
    allowed: WRITE.billing,
    menuGroup: 'Configurações',
  }),
  r({
    name: 'settings-system',
    link: '/dashboard/settings/system',
    title: 'Sistema',
    allowed: BACKOFFICE,
    menuGroup: 'Configurações',
  }),
  ...crud(
    'payable',
    '/dashboard/payable',
    'Contas a pagar',
    'Nova conta a pagar',
    'Editar conta a pagar',
    FINANCE,
    'Financeiro',
    WRITE.finance,
  ),
  ...crud(
    'supplier',
    '/dashboard/supplier',
    'Fornecedores',
    'Novo fornecedor',
    'Editar fornecedor',
    FINANCE,
    'Financeiro',
    WRITE.finance,
  ),
  r({
    name: 'finance-cash-flow',
    link: '/dashboard/finance/cash-flow',
    title: 'Fluxo de caixa',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    // Issue 34: the shop's own expense categories in the six DRE groups (who writes the payables).
    name: 'finance-categories',
    link: '/dashboard/finance/categories',
    title: 'Categorias de despesa',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    // Issue 34: the named bank accounts a bill is paid from (who writes the payables).
    name: 'finance-bank-accounts',
    link: '/dashboard/finance/bank-accounts',
    title: 'Contas bancárias',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    name: 'finance-day-close',
    link: '/dashboard/finance/day-close',
    title: 'Fechamento do dia',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    name: 'finance-dre',
    link: '/dashboard/finance/dre',
    title: 'DRE',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    // Issue 34: the sales reports an owner reads every day (ROUTES.md: the Financeiro pages' people).
    name: 'finance-reports',
    link: '/dashboard/finance/reports',
    title: 'Relatórios',
    allowed: FINANCE,
    menuGroup: 'Financeiro',
  }),
  r({
    // ROUTES.md: the reports are also reachable from Vendas, for the same people (1, 2, 7).
    name: 'sale-reports',
    link: '/dashboard/sale/reports',
    title: 'Relatórios de vendas',
    allowed: FINANCE,
    menuGroup: 'Vendas',
  }),
  r({
    // Issue 35: iFood and Open Delivery accounts, auto-confirm and the item mappings (ROUTES.md: 1, 2).
    name: 'settings-marketplace',
    link: '/dashboard/settings/marketplace',
    title: 'Marketplaces',
    allowed: WRITE.settings,
    menuGroup: 'Configurações',
  }),
  r({
    // Issue 32: NFC-e issuer, A1 certificate, notes and voiding: the Administrador's.
    name: 'settings-fiscal',
    link: '/dashboard/settings/fiscal',
    title: 'Fiscal',
    allowed: WRITE.system,
    menuGroup: 'Configurações',
  }),
  r({
    // Issue 37: the instance's backups, the Administrador's alone (the API also keeps them to the first shop).
    name: 'settings-backup',
    link: '/dashboard/settings/backup',
    title: 'Backups',
    allowed: WRITE.system,
    menuGroup: 'Configurações',
  }),
  r({
    // Issue 33: the PSP account of Pix confirmed by the bank (API Pix v2), the Administrador's alone.
    name: 'settings-pix',
    link: '/dashboard/settings/pix',
    title: 'Conta Pix',
    allowed: WRITE.system,
    menuGroup: 'Configurações',
  }),
  r({
    // Issue 33: the Pix to reconcile and the day's Pix at the bank against the sales (finance people).
    name: 'sale-pix-reconciliation',
    link: '/dashboard/sale/pix-reconciliation',
    title: 'Conciliação Pix',
    allowed: ACTION.registerReports,
    menuGroup: 'Vendas',
  }),
];

export const PRODUCT_NAME = 'Balcão';

export function pageTitle(title: string): string {
  return `${title} | ${PRODUCT_NAME}`;
}

/** The route a pathname belongs to: an exact match first, then the longest prefix match. */
export function findRoute(pathname: string, routes: readonly AppRoute[] = ROUTES): AppRoute | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = routes.find((route) => route.link === path);
  if (exact) return exact;
  let best: AppRoute | undefined;
  for (const route of routes) {
    if (route.match !== 'prefix') continue;
    if (path === route.link || path.startsWith(`${route.link}/`)) {
      if (!best || route.link.length > best.link.length) best = route;
    }
  }
  return best;
}

export function isAllowed(route: AppRoute, userTypeId: number | undefined): boolean {
  return route.allowed === 'public' || can(userTypeId, route.allowed);
}

/** A route whose feature flag is off is hidden from the menu and closed like a missing permission. */
export function isEnabled(
  route: AppRoute,
  checklist: Partial<SettingsChecklist> | null | undefined,
): boolean {
  return !route.flag || Boolean(checklist?.[route.flag]);
}

export function canOpen(
  route: AppRoute,
  userTypeId: number | undefined,
  checklist: Partial<SettingsChecklist> | null | undefined,
): boolean {
  return isAllowed(route, userTypeId) && isEnabled(route, checklist);
}

/** `canOpen`, and for a page that only creates (`write`), may this user create? The FAB and the guard ask. */
export function canUse(
  route: AppRoute,
  userTypeId: number | undefined,
  checklist: Partial<SettingsChecklist> | null | undefined,
): boolean {
  return canOpen(route, userTypeId, checklist) && (!route.write || can(userTypeId, route.write));
}

export type MenuEntry = { group: MenuGroup; items: AppRoute[] };

/** Side-menu groups for a user type and the client's flags, in the spec's group order. */
export function menuFor(
  userTypeId: number,
  checklist: Partial<SettingsChecklist> | null | undefined,
): MenuEntry[] {
  return MENU_GROUPS.map((group) => ({
    group,
    items: ROUTES.filter((route) => route.menuGroup === group && canOpen(route, userTypeId, checklist)),
  })).filter((entry) => entry.items.length > 0);
}

/** The first page a user type lands on: drivers go straight to their first driver page. */
export function homeFor(userTypeId: number): string {
  if (can(userTypeId, TAKES_DELIVERIES)) return '/dashboard/driver/available';
  if (can(userTypeId, DRIVERS)) return '/dashboard/driver/awaiting-collection';
  return '/dashboard';
}

/** The bottom bar's PDV item is hidden for the types the PDV is closed to. */
export function showsPdvInBottomBar(userTypeId: number): boolean {
  return can(userTypeId, PDV);
}
