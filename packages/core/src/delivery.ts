import { customerAddressSchema } from './customer.ts';
import { isIsoDate } from './date.ts';
import { pixChargeSchema } from './pixCharge.ts';
import { refSchema } from './responses.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Delivery orders (issue 18): the panel's statuses, the driver's actions, proof of delivery by a
 * 4-digit code and the per-driver settlement (acerto). Money in integer cents.
 */

// ---------------------------------------------------------------------------------------------------
// Statuses (PRODUCT.md: pending -> waiting -> available -> accepted -> sending -> success; canceled;
// failed with a reason)

export const DELIVERY_STATUSES = [
  'pending',
  'waiting',
  'available',
  'accepted',
  'sending',
  'success',
  'failed',
  'canceled',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Novo',
  waiting: 'Em preparo',
  available: 'Disponível',
  accepted: 'Aguardando coleta',
  sending: 'Em trânsito',
  success: 'Entregue',
  failed: 'Não entregue',
  canceled: 'Cancelado',
};
/**
 * Issue 35: where a delivery order came from, on its card and the panel (made from its sale's origin:
 * iFood, an Open Delivery app, a table's comanda, the counter PDV or a phone order).
 */
export const DELIVERY_ORIGINS = ['ifood', 'opendelivery', 'table', 'counter', 'phone'] as const;
export type DeliveryOrigin = (typeof DELIVERY_ORIGINS)[number];
export const DELIVERY_ORIGIN_LABELS: Record<DeliveryOrigin, string> = {
  ifood: 'iFood',
  opendelivery: 'Open Delivery',
  table: 'Mesa',
  counter: 'Balcão',
  phone: 'Telefone',
};

/** Statuses an order is still moving in (the panel's open columns). */
export const OPEN_DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'pending',
  'waiting',
  'available',
  'accepted',
  'sending',
];

/** How the customer pays on delivery (paymentOnDelivery). */
export const ON_DELIVERY_METHODS = ['money', 'debitCard', 'creditCard', 'pix'] as const;
export type OnDeliveryMethod = (typeof ON_DELIVERY_METHODS)[number];
export const ON_DELIVERY_METHOD_LABELS: Record<OnDeliveryMethod, string> = {
  money: 'Dinheiro',
  debitCard: 'Cartão de débito',
  creditCard: 'Cartão de crédito',
  pix: 'Pix',
};

/** Why a delivery failed: the driver picks one (no free text on a phone in the street). */
export const DELIVERY_FAILURE_REASONS = [
  'Cliente ausente',
  'Endereço não encontrado',
  'Cliente recusou o pedido',
  'Cliente sem dinheiro ou cartão',
  'Problema com o veículo',
  'Outro motivo',
] as const;

/** A driver may take back a "entregue" or "não entregue" tapped by mistake within these minutes. */
export const REOPEN_MINUTES = 10;
/** Minutes promised when the sale does not say (the freight rule's time, when it has one, wins). */
export const DEFAULT_PROMISE_MINUTES = 45;
/** Minutes before the promised time a card turns yellow. */
const ATTENTION_MINUTES = 10;

export const DELIVERY_MESSAGES = {
  notFound: 'Pedido de entrega não encontrado',
  transition: (from: DeliveryStatus) =>
    `Este pedido está "${DELIVERY_STATUS_LABELS[from]}": a ação não vale mais para ele`,
  taken: 'Este pedido já foi aceito por outro entregador',
  notYours: 'Este pedido não está com você',
  /** Issue 35: an order the marketplace's own couriers deliver (iFood's deliveredBy IFOOD). */
  marketplaceCourier: (marketplace: string) =>
    `Este pedido é entregue pelos entregadores do ${marketplace}: marque como pronto e aguarde a coleta`,
  partnerCannotTake: 'Entregador parceiro não aceita pedidos disponíveis: aguarde um pedido atribuído a você',
  offShift: 'Faça o check-in do turno para aceitar pedidos',
  wrongCode: 'Código de entrega incorreto',
  reasonRequired: 'Escolha o motivo',
  reopenExpired: `Só dá para reabrir até ${REOPEN_MINUTES} minutos depois`,
  driverNotFound: 'Entregador não encontrado',
  onDeliveryMethod: 'Informe como o cliente paga na entrega',
  changeForLow: 'O troco deve ser para um valor maior que o valor a receber',
  changeOnlyMoney: 'Troco só para pagamento em dinheiro',
  onlyDelivery: 'Pedido de entrega precisa de venda com entrega',
  settlementEmpty: 'Nenhuma entrega a acertar neste período',
  settledAlready: 'Este pedido já entrou num acerto: cancele-o e faça um novo pedido',
  belowMinimum: (minimum: string) => `Pedido mínimo para entrega: ${minimum}`,
  closedNow: 'A loja está fechada agora: pedidos de entrega só no horário de funcionamento',
  closedWarning: 'A loja está fechada agora: o pedido será aceito fora do horário de funcionamento',
  settlementChanged: 'As entregas do período mudaram: confira o acerto de novo',
  noPrinter: 'Configure a impressora de cupons em Configurações > Impressoras para imprimir o pedido',
  alreadyOnShift: 'Você já está em turno',
  notOnShift: 'Você não está em turno',
  /** Issue 33: switching an order paid on delivery to Pix QR dinâmico. */
  pixNothingToCollect: 'Este pedido não tem valor a receber na entrega',
  pixClosed: 'Este pedido já foi finalizado: não dá mais para cobrar por Pix',
  pixAlreadyPaid: 'Este pedido já foi pago por Pix',
  pixNotOffered: 'Configure a conta Pix (Configurações > Pix) para cobrar com Pix QR dinâmico',
  pixMarketplace: 'O pagamento deste pedido é feito pelo marketplace',
} as const;

/** The default delivery code: the last 4 digits of the customer's phone (iFood's rule); null without one. */
export function defaultDeliveryCode(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

export type Lateness = 'onTime' | 'attention' | 'late';

/** A card's colour against the promised time: blue on time, yellow in the last minutes, red late. */
export function latenessOf(promisedAt: string | Date, now: Date = new Date()): Lateness {
  const left = new Date(promisedAt).getTime() - now.getTime();
  if (left < 0) return 'late';
  if (left <= ATTENTION_MINUTES * 60_000) return 'attention';
  return 'onTime';
}

/** The change a driver carries: what the customer pays with minus what is due (0 unless money). */
export function changeToCarry(order: {
  onDeliveryMethod: OnDeliveryMethod | null;
  collectCents: number;
  changeForCents: number;
}): number {
  if (order.onDeliveryMethod !== 'money' || order.changeForCents <= order.collectCents) return 0;
  return order.changeForCents - order.collectCents;
}

// ---------------------------------------------------------------------------------------------------
// Inputs

const id = z
  .number({ message: 'Identificador inválido' })
  .int('Identificador inválido')
  .positive('Identificador inválido');

/** What a delivery sale adds to the PDV's sale input (`delivery` of POST /v1/sale). */
export const deliveryOnSaleSchema = z.object({
  /** How the paymentOnDelivery amount is paid; required when the sale has one. */
  onDeliveryMethod: z
    .enum(ON_DELIVERY_METHODS, { message: 'Forma de pagamento inválida' })
    .nullish()
    .transform((v) => v ?? null),
  /** "Troco para": the note the customer will pay with (money), 0 = no change needed. */
  changeForCents: z.number().int().min(0).max(100_000_000).default(0),
  /** Minutes until the promised delivery (the freight rule's time); default DEFAULT_PROMISE_MINUTES. */
  promiseMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .nullish(),
});
export type DeliveryOnSale = z.output<typeof deliveryOnSaleSchema>;

export const deliveryAssignSchema = z.object({ driverId: id });
export const deliveryStatusInputSchema = z.object({
  status: z.enum(['waiting', 'available'], { message: 'Status inválido' }),
});
export const deliveryCancelSchema = z.object({
  reason: z
    .string({ message: REQUIRED })
    .trim()
    .min(3, 'Descreva o motivo (no mínimo 3 caracteres)')
    .max(500, 'Use no máximo 500 caracteres'),
  /**
   * Canceling an order cancels its sale (issue 30 item 5): an Administrador/Gerente, or a manager's
   * email and password, as the sale's cancel asks (sale.ts's approvalSchema; not imported: sale.ts
   * imports this file).
   */
  approval: z
    .object({
      email: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(254),
      password: z.string({ message: REQUIRED }).min(1, REQUIRED).max(128, 'Use no máximo 128 caracteres'),
    })
    .optional(),
});
export const deliveryDeliverSchema = z.object({
  code: z
    .string({ message: 'Informe o código' })
    .trim()
    .regex(/^\d{4}$/, 'O código tem 4 dígitos'),
});
export const deliveryFailSchema = z.object({
  reason: z.enum(DELIVERY_FAILURE_REASONS, { message: DELIVERY_MESSAGES.reasonRequired }),
});

export const DRIVER_LISTS = ['available', 'awaiting-collection', 'in-transit', 'delivered'] as const;
export type DriverList = (typeof DRIVER_LISTS)[number];

export const deliveryPanelQuerySchema = z.object({
  driverId: z.coerce.number().int().positive().optional(),
  neighborhood: z.string().trim().max(100).optional(),
  onDelivery: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Where the orders came from (issue 35): iFood, Open Delivery, a table, the counter, a phone order. */
  origin: z.enum(DELIVERY_ORIGINS, { message: 'Origem inválida' }).optional(),
});

const isoDate = z.string({ message: 'Informe a data' }).refine((v) => isIsoDate(v), 'Data inválida');

export const settlementQuerySchema = z
  .object({ driverId: z.coerce.number().int().positive(), from: isoDate, to: isoDate })
  .refine((v) => v.from <= v.to, { message: 'A data final deve ser depois da inicial', path: ['to'] });

export const settlementInputSchema = z
  .object({
    driverId: id,
    from: isoDate,
    to: isoDate,
    /** The cash the manager counted from the driver. */
    countedCents: z.number({ message: 'Informe o valor contado' }).int().min(0).max(100_000_000),
    /** The open register the counted cash goes into and the fees come out of (issue 30 item 5). */
    cashRegisterId: z.number({ message: 'Escolha o caixa que recebe o acerto' }).int().positive(),
    /** The orders the manager saw: a different set answers 409 (something moved meanwhile). */
    orderIds: z.array(id).min(1, DELIVERY_MESSAGES.settlementEmpty).max(2000),
  })
  .refine((v) => v.from <= v.to, { message: 'A data final deve ser depois da inicial', path: ['to'] });
export type SettlementInput = z.input<typeof settlementInputSchema>;

export const deliverySettingsInputSchema = z.object({
  notifyCustomer: z.boolean(),
  /** Take phone orders outside the working hours, with a warning (default: refused). */
  acceptOutsideHours: z.boolean().optional(),
});

// ---------------------------------------------------------------------------------------------------
// Answers

export const deliveryAddressSnapshotSchema = customerAddressSchema.pick({
  zipCode: true,
  street: true,
  number: true,
  complement: true,
  neighborhood: true,
  city: true,
  state: true,
});
export type DeliveryAddressSnapshot = z.infer<typeof deliveryAddressSnapshotSchema>;

export const deliveryOrderSchema = z.object({
  id: z.number(),
  saleId: z.number(),
  saleNumber: z.number(),
  status: z.enum(DELIVERY_STATUSES),
  customerName: z.string().nullable(),
  customerPhone: z.string().nullable(),
  address: deliveryAddressSnapshotSchema.nullable(),
  neighborhood: z.string(),
  itemsText: z.string(),
  totalCents: z.number(),
  freightCents: z.number(),
  /** What the driver collects on delivery (paymentOnDelivery). */
  collectCents: z.number(),
  onDeliveryMethod: z.enum(ON_DELIVERY_METHODS).nullable(),
  changeForCents: z.number(),
  /** The change the driver carries. */
  changeCents: z.number(),
  /**
   * Issue 33: the Pix QR dinâmico the customer paid for what was to be collected on delivery (the bank's
   * endToEndId): nothing left to collect in cash; the acerto and the cash close count it as Pix.
   */
  pixEndToEndId: z.string().nullable().optional(),
  driverFeeCents: z.number().nullable(),
  driver: refSchema.nullable(),
  promisedAt: z.string(),
  failureReason: z.string().nullable(),
  cancelReason: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  pickedUpAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  settled: z.boolean(),
  /** Issue 35: where the order came from. */
  origin: z.enum(DELIVERY_ORIGINS),
  /**
   * Issue 35: the marketplace whose own couriers deliver it ("iFood"); null = the shop's drivers. Such
   * an order is only made ready ("Pronto"): never assigned to nor taken by the shop's drivers.
   */
  marketplaceCourier: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeliveryOrder = z.infer<typeof deliveryOrderSchema>;

/**
 * Issue 33: an order's Pix QR dinâmico (what was to be collected on delivery): offered when the shop
 * has a Pix account; the charge once asked (the paid one stays shown).
 */
export const deliveryOrderPixSchema = z.object({
  offered: z.boolean(),
  charge: pixChargeSchema.nullable(),
});
export type DeliveryOrderPix = z.infer<typeof deliveryOrderPixSchema>;

const deliveryDriverSchema = z.object({
  id: z.number(),
  name: z.string(),
  userTypeId: z.number(),
  onShift: z.boolean(),
});

export const deliveryPanelSchema = z.object({
  orders: z.array(deliveryOrderSchema),
  counters: z.record(z.enum(DELIVERY_STATUSES), z.number()),
  driversOnShift: z.number(),
  drivers: z.array(deliveryDriverSchema),
  notifyCustomer: z.boolean(),
  /** Phone orders outside the working hours taken with a warning (issue 30 item 17). */
  acceptOutsideHours: z.boolean(),
});
export type DeliveryPanel = z.infer<typeof deliveryPanelSchema>;

export const driverShiftSchema = z.object({
  onShift: z.boolean(),
  startedAt: z.string().nullable(),
});
export type DriverShift = z.infer<typeof driverShiftSchema>;

export const driverOrdersSchema = z.object({
  orders: z.array(deliveryOrderSchema),
  /** Delivered list: today's count, cash collected and fees earned. */
  totals: z.object({ count: z.number(), collectedCents: z.number(), feesCents: z.number() }),
  shift: driverShiftSchema,
});
export type DriverOrders = z.infer<typeof driverOrdersSchema>;

export const settlementLineSchema = z.object({
  orderId: z.number(),
  saleNumber: z.number(),
  status: z.enum(DELIVERY_STATUSES),
  customerName: z.string().nullable(),
  finishedAt: z.string().nullable(),
  onDeliveryMethod: z.enum(ON_DELIVERY_METHODS).nullable(),
  /** Change handed out at dispatch. */
  changeCents: z.number(),
  /** Cash collected on delivery. */
  cashCents: z.number(),
  /** Card or pix collected on delivery (not handed over in cash). */
  otherCents: z.number(),
  feeCents: z.number(),
  /** True when the shipping rule could not say the fee (per km without a distance). */
  feeUnknown: z.boolean(),
});

export const settlementPreviewSchema = z.object({
  driver: refSchema,
  from: z.string(),
  to: z.string(),
  lines: z.array(settlementLineSchema),
  changeCents: z.number(),
  cashCents: z.number(),
  otherCents: z.number(),
  feesCents: z.number(),
  /** Change handed out + cash collected: what the driver must hand over. */
  toHandOverCents: z.number(),
  /** The fees: what the shop owes the driver. */
  owedCents: z.number(),
});
export type SettlementPreview = z.infer<typeof settlementPreviewSchema>;

export const settlementSchema = settlementPreviewSchema.extend({
  id: z.number(),
  countedCents: z.number(),
  /** Counted - to hand over (negative: missing). */
  differenceCents: z.number(),
  confirmedBy: refSchema,
  confirmedAt: z.string(),
  /** The register the cash went into (null for an acerto before issue 30). */
  cashRegisterId: z.number().nullable(),
});
export type Settlement = z.infer<typeof settlementSchema>;

export const settlementListSchema = z.array(settlementSchema.omit({ lines: true }));
export type SettlementSummary = z.infer<typeof settlementListSchema>[number];

export const deliverySettingsSchema = z.object({
  notifyCustomer: z.boolean(),
  acceptOutsideHours: z.boolean(),
});
