import { z } from './zod.ts';

/**
 * Marketplace inbox (issue 35): orders from iFood and from Open Delivery ordering applications
 * (aiqfome, Keeta...) polled by the API, stored once, mapped to the shop's products and turned into a
 * delivery order (or a pickup) through the sale seam. Money in integer cents.
 */

/** The protocols Balcão speaks. A second Open Delivery app is configuration (its provider), not code. */
export const MARKETPLACE_KINDS = ['ifood', 'opendelivery'] as const;
export type MarketplaceKind = (typeof MARKETPLACE_KINDS)[number];
export const MARKETPLACE_KIND_LABELS: Record<MarketplaceKind, string> = {
  ifood: 'iFood',
  opendelivery: 'Open Delivery',
};

/**
 * A marketplace order in Balcão:
 * - new: stored and acknowledged, waiting for a confirmation (by hand, or automatic);
 * - mapping: an item has no product of the shop yet (the mapping screen);
 * - confirmed: a sale and its delivery order exist (the delivery panel moves it from here);
 * - canceled: canceled by the marketplace, the customer or the shop.
 */
export const MARKETPLACE_ORDER_STATUSES = ['new', 'mapping', 'confirmed', 'canceled'] as const;
export type MarketplaceOrderStatus = (typeof MARKETPLACE_ORDER_STATUSES)[number];
export const MARKETPLACE_ORDER_STATUS_LABELS: Record<MarketplaceOrderStatus, string> = {
  new: 'Aguardando confirmação',
  mapping: 'Item sem produto',
  confirmed: 'Confirmado',
  canceled: 'Cancelado',
};

/** What Balcão tells the marketplace, in the order an order goes through them (each sent once). */
export const MARKETPLACE_STATUS_SENDS = [
  'confirmed',
  'preparing',
  'ready',
  'dispatched',
  'delivered',
  'canceled',
] as const;
export type MarketplaceStatusSend = (typeof MARKETPLACE_STATUS_SENDS)[number];
export const MARKETPLACE_STATUS_SEND_LABELS: Record<MarketplaceStatusSend, string> = {
  confirmed: 'Confirmado',
  preparing: 'Em preparo',
  ready: 'Pronto',
  dispatched: 'Saiu para entrega',
  delivered: 'Entregue',
  canceled: 'Cancelado',
};

/** iFood: an order not confirmed within 8 minutes is canceled by the platform (issue 35, ANCHORS 8.3). */
export const CONFIRM_DEADLINE_MINUTES = 8;

export const MARKETPLACE_MESSAGES = {
  accountNotFound: 'Conta de marketplace não encontrada',
  orderNotFound: 'Pedido de marketplace não encontrado',
  providerUnknown: 'Escolha um aplicativo de pedidos configurado no servidor',
  secretRequired: 'Informe o client secret',
  duplicateAccount: 'Esta loja já está cadastrada neste marketplace',
  notNew: 'Este pedido não está mais aguardando confirmação',
  unmapped: 'Há itens sem produto: associe cada item a um produto da loja antes de confirmar',
  alreadyConfirmed: 'Este pedido já foi confirmado',
  noRegister: (name: string) => `Abra o caixa de ${name} para receber pedidos de marketplace`,
  productNotFound: 'Produto não encontrado',
  noCancellationRequest: 'Não há pedido de cancelamento para responder',
  newOrder: (marketplace: string, displayId: string) => `Novo pedido ${marketplace} #${displayId}`,
  canceledByMarketplace: (marketplace: string, displayId: string) =>
    `Pedido ${marketplace} #${displayId} cancelado pelo marketplace`,
  cancellationRequested: (marketplace: string, displayId: string) =>
    `O cliente pediu o cancelamento do pedido ${marketplace} #${displayId}`,
  /** What the shop reads when a call failed (the marketplace's own text goes to the log only). */
  credentialsRefused: (status: number) =>
    `O marketplace recusou as credenciais da conta (HTTP ${status}): confira o client ID e o secret`,
  remoteRefused: (status: number) =>
    `O marketplace recusou a chamada (HTTP ${status}): nova tentativa em seguida`,
  remoteUnavailable: (status: number) =>
    `O marketplace está indisponível (HTTP ${status}): nova tentativa em seguida`,
  noAnswer: 'Sem resposta do marketplace: nova tentativa em seguida',
} as const;

const text = (max: number, message: string) =>
  z
    .string({ message })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, message).max(max, `Use no máximo ${max} caracteres`));

/** An account (one shop on one marketplace). The secret is write-only: never answered. */
export const marketplaceAccountInputSchema = z.object({
  kind: z.enum(MARKETPLACE_KINDS, { message: 'Escolha o marketplace' }),
  /** Open Delivery: the ordering app, one of the server's OPEN_DELIVERY_PROVIDERS; iFood: ''. */
  provider: z.string().max(60).default(''),
  /** The name shown as the sale's origin ("iFood", "aiqfome"). */
  name: text(60, 'Informe o nome'),
  merchantId: text(100, 'Informe o ID da loja no marketplace'),
  clientId: text(200, 'Informe o client ID'),
  /** Empty on an edit keeps the stored one. */
  clientSecret: z.string().max(500).default(''),
  active: z.boolean().default(true),
  /** Confirm by itself while the shop is open (working hours); otherwise by hand before the deadline. */
  autoConfirm: z.boolean().default(false),
});
export type MarketplaceAccountInput = z.input<typeof marketplaceAccountInputSchema>;
export type MarketplaceAccountData = z.output<typeof marketplaceAccountInputSchema>;

export const marketplaceAccountSchema = z.object({
  id: z.number(),
  kind: z.enum(MARKETPLACE_KINDS),
  provider: z.string(),
  name: z.string(),
  merchantId: z.string(),
  clientId: z.string(),
  hasSecret: z.boolean(),
  active: z.boolean(),
  autoConfirm: z.boolean(),
  /** The user whose register takes the sales (who saved the account). */
  operator: z.object({ id: z.number(), name: z.string() }),
  lastPolledAt: z.string().nullable(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
});
export type MarketplaceAccount = z.infer<typeof marketplaceAccountSchema>;

export const marketplaceAccountsSchema = z.object({
  accounts: z.array(marketplaceAccountSchema),
  /** Open Delivery ordering apps the server knows (OPEN_DELIVERY_PROVIDERS). */
  providers: z.array(z.string()),
});
export type MarketplaceAccounts = z.infer<typeof marketplaceAccountsSchema>;

export const marketplaceOrderItemSchema = z.object({
  index: z.number(),
  externalCode: z.string(),
  name: z.string(),
  quantity: z.number(),
  unitPriceCents: z.number(),
  totalCents: z.number(),
  notes: z.string().nullable(),
  /** The shop's product it is mapped to (remembered per marketplace account and code); null = unmapped. */
  product: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type MarketplaceOrderItem = z.infer<typeof marketplaceOrderItemSchema>;

export const marketplaceOrderSchema = z.object({
  id: z.number(),
  accountId: z.number(),
  marketplace: z.string(),
  externalId: z.string(),
  displayId: z.string(),
  status: z.enum(MARKETPLACE_ORDER_STATUSES),
  type: z.enum(['delivery', 'pickup']),
  customerName: z.string(),
  customerPhone: z.string().nullable(),
  address: z.string().nullable(),
  items: z.array(marketplaceOrderItemSchema),
  subtotalCents: z.number(),
  deliveryFeeCents: z.number(),
  /** The marketplace's fees charged to the customer (service fee, small order). */
  feesCents: z.number(),
  discountCents: z.number(),
  totalCents: z.number(),
  /** Paid online on the marketplace (never the drawer's cash) or collected on delivery. */
  prepaidCents: z.number(),
  pendingCents: z.number(),
  /** When the marketplace cancels an unconfirmed order. */
  confirmDeadline: z.string(),
  cancellationRequested: z.boolean(),
  saleId: z.number().nullable(),
  saleNumber: z.number().nullable(),
  /** Why an automatic confirmation did not happen (no open register, a product refused). */
  problem: z.string().nullable(),
  createdAt: z.string(),
});
export type MarketplaceOrder = z.infer<typeof marketplaceOrderSchema>;

export const marketplaceOrdersSchema = z.object({ orders: z.array(marketplaceOrderSchema) });

export const marketplaceOrdersQuerySchema = z.object({
  /** open: new and mapping (the inbox); all: the last 100. */
  view: z.enum(['open', 'all']).default('open'),
});

/** The mapping screen: a marketplace item's code becomes one of the shop's products, remembered. */
export const marketplaceMappingInputSchema = z.object({
  accountId: z.number({ message: 'Conta inválida' }).int().positive(),
  externalCode: z.string().min(1, 'Código inválido').max(200),
  productId: z.number({ message: 'Escolha um produto' }).int().positive('Escolha um produto'),
});
export type MarketplaceMappingInput = z.infer<typeof marketplaceMappingInputSchema>;

export const marketplaceMappingSchema = z.object({
  accountId: z.number(),
  externalCode: z.string(),
  name: z.string(),
  product: z.object({ id: z.number(), name: z.string() }),
});
export const marketplaceMappingsSchema = z.object({ mappings: z.array(marketplaceMappingSchema) });

export const cancellationAnswerSchema = z.object({ accept: z.boolean() });
