import { customerInputSchema } from '@balcao/core/customer';
import type { DeliveryAddress, PaymentInput } from '@balcao/core/sale';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { conflict } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findAddresses, insertCustomer } from '../customer/service.ts';
import { queueProductionOfSale } from '../delivery/production.ts';
import { createOrderOfSale } from '../delivery/service.ts';
import { deliverSectorTickets } from '../printing/sectorTickets.ts';
import { priceItems } from '../product/pricing.ts';
import { findSale } from '../sale/read.ts';
import { type RecordedSale, recordSale, type SaleDraft } from '../sale/record.ts';
import type { NormalizedOrder, OrderAddress } from './adapters.ts';
import { adoptKitchenOfOrder } from './kitchen.ts';
import { marketplaceCustomers, marketplaceOrders, marketplaceStatusSends } from './schema.ts';

/**
 * The sale of a marketplace order (issue 35): an origin of the sale seam. Lines at the marketplace's
 * prices on the mapped products (stock moves as any sale), the delivery fee and the marketplace's
 * fees as freight, its discount, and its payment: what was paid online is a `marketplace` payment
 * (never the drawer's cash), what the customer pays on delivery is `paymentOnDelivery`. The delivery
 * order (or a pickup's kitchen tickets) is made in the same transaction, and the marketplace order
 * is marked confirmed with its "confirmed" status queued, once: a second confirmation rolls back.
 */

type Account = { id: number; kind: string; name: string };
type OrderRow = { id: number; clientId: number; detail: unknown; displayId: string };

const addressText = (a: OrderAddress) => `${a.street}, ${a.number}`.toLowerCase();

/** The shop's customer of a marketplace customer, made on their first order (remembered). */
async function customerOf(
  tx: Executor,
  session: SessionUser,
  account: Account,
  order: NormalizedOrder,
): Promise<{ customerId: number; address: DeliveryAddress | null }> {
  const [known] = order.customer.externalId
    ? await tx
        .select({ customerId: marketplaceCustomers.customerId })
        .from(marketplaceCustomers)
        .where(
          and(
            eq(marketplaceCustomers.accountId, account.id),
            eq(marketplaceCustomers.externalId, order.customer.externalId),
          ),
        )
    : [];
  let customerId = known?.customerId;
  const a = order.address;
  const addressInput = a
    ? {
        zipCode: a.zipCode,
        street: a.street,
        number: a.number || 'S/N',
        complement: [a.complement, a.reference].filter(Boolean).join(' - ') || null,
        neighborhood: a.neighborhood,
        city: a.city,
        state: a.state,
      }
    : null;
  if (customerId === undefined) {
    // The fullest record the customer rules accept: a marketplace's masked phone or an odd CEP
    // still makes the customer, without them.
    const attempts = [
      {
        name: order.customer.name,
        phone: order.customer.phone,
        addresses: addressInput ? [addressInput] : [],
      },
      { name: order.customer.name, addresses: addressInput ? [addressInput] : [] },
      { name: order.customer.name },
      { name: `Cliente ${account.name}` },
    ];
    const data = attempts.map((x) => customerInputSchema.safeParse(x)).find((r) => r.success);
    if (!data?.success) throw new Error('customer');
    customerId = await insertCustomer(tx, session.clientId, data.data);
    if (order.customer.externalId)
      await tx
        .insert(marketplaceCustomers)
        .values({ accountId: account.id, externalId: order.customer.externalId, customerId })
        .onConflictDoNothing();
  }
  if (!a || !addressInput) return { customerId, address: null };
  const saved = (await findAddresses(tx, session, customerId)).find(
    (s) => `${s.street}, ${s.number}`.toLowerCase() === addressText({ ...a, number: addressInput.number }),
  );
  return {
    customerId,
    address: saved
      ? {
          id: saved.id,
          zipCode: saved.zipCode,
          street: saved.street,
          number: saved.number,
          complement: saved.complement,
          neighborhood: saved.neighborhood,
          city: saved.city,
          state: saved.state,
        }
      : { id: 0, ...addressInput },
  };
}

async function draftOf(
  tx: Executor,
  session: SessionUser,
  account: Account,
  order: NormalizedOrder,
  productOf: Map<string, number>,
): Promise<SaleDraft> {
  const { customerId, address } = await customerOf(tx, session, account, order);
  const priced = await priceItems(
    tx,
    session.clientId,
    order.items.map((i) => ({
      productId: productOf.get(i.externalCode) as number,
      variantId: null,
      quantity: i.quantity,
      additionals: [],
    })),
    // The marketplace's own options came as the item's notes: the shop's required add-ons are not asked.
    { requiredChoices: false },
  );
  const lines = order.items.map((item, n) => ({
    ...priced[n],
    productId: priced[n].productId,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    additionals: [],
    discountType: 'fixed_amount' as const,
    discountValue: 0,
    notes: item.notes,
  }));
  const linesCents = lines.reduce((s, l) => s + Math.round(l.unitPriceCents * l.quantity), 0);
  const freightCents = order.deliveryFeeCents + Math.max(0, order.feesCents);
  const discountCents = Math.min(order.discountCents, linesCents);
  const totalCents = linesCents - discountCents + freightCents;
  const pendingCents = Math.min(order.pendingCents, totalCents);
  const payments: PaymentInput[] = [];
  const delivery = order.type === 'delivery';
  if (pendingCents > 0)
    payments.push({
      method: delivery ? 'paymentOnDelivery' : pendingMethodAtCounter(order.pendingMethod),
      amountCents: pendingCents,
      numberInstallments: 1,
      dueDate: null,
    });
  if (totalCents - pendingCents > 0)
    payments.push({
      method: 'marketplace',
      amountCents: totalCents - pendingCents,
      numberInstallments: 1,
      dueDate: null,
    });
  return {
    originSale: account.kind === 'ifood' ? 'ifood' : 'marketplace',
    typeOfSale: delivery ? 'delivery' : 'store',
    isSimple: false,
    customerId,
    sellerId: null,
    deliveryAddress: delivery ? address : null,
    discountType: 'fixed_amount',
    discountValue: discountCents,
    couponCode: null,
    freightCents,
    notes: `Pedido ${account.name} #${order.displayId}`,
    payments,
    cashDepositAmountCents: 0,
    lines,
  };
}

const pendingMethodAtCounter = (m: NormalizedOrder['pendingMethod']) =>
  m === 'creditCard' ? 'creditCard' : m === 'debitCard' ? 'debitCard' : m === 'pix' ? 'pix' : 'money';

export async function recordMarketplaceSale(
  ctx: AppContext,
  session: SessionUser,
  account: Account,
  row: OrderRow,
  productOf: Map<string, number>,
): Promise<RecordedSale> {
  const order = row.detail as NormalizedOrder;
  let afterCommit: (() => void) | undefined;
  const recorded = await recordSale(ctx, session, (tx) => draftOf(tx, session, account, order, productOf), {
    idempotencyKey: `marketplace:${row.id}`,
    body: { marketplaceOrder: row.id },
    onRecorded: async (tx, sale) => {
      const [marked] = await tx
        .update(marketplaceOrders)
        .set({
          status: 'confirmed',
          saleId: sale.id,
          saleNumber: sale.number,
          problem: null,
          updatedAt: new Date(),
        })
        .where(and(eq(marketplaceOrders.id, row.id), isNull(marketplaceOrders.saleId)))
        .returning({ id: marketplaceOrders.id });
      if (!marked) throw conflict('Este pedido já foi confirmado');
      // Its kitchen tickets written with the order (an automatic confirmation, issue 35) become the
      // sale's: the sale's production below finds them and queues nothing more.
      await adoptKitchenOfOrder(tx, row.clientId, row.id, sale.id);
      await tx
        .insert(marketplaceStatusSends)
        .values({ clientId: row.clientId, orderId: row.id, status: 'confirmed' })
        .onConflictDoNothing();
      if (order.type === 'delivery') {
        afterCommit = await createOrderOfSale(ctx, tx, session, sale, {
          onDeliveryMethod: order.pendingCents > 0 ? (order.pendingMethod ?? 'money') : null,
          changeForCents:
            (order.pendingMethod ?? 'money') === 'money' && order.changeForCents >= order.pendingCents
              ? order.changeForCents
              : 0,
          promiseMinutes: null,
          // iFood's own couriers (deliveredBy IFOOD): the shop only makes it ready.
          marketplaceCourier: order.marketplaceDelivers
            ? account.kind === 'ifood'
              ? 'iFood'
              : account.name
            : null,
        });
      } else {
        const tickets = await queueProductionOfSale(tx, session, await findSale(tx, session, sale.id), null);
        afterCommit = () => deliverSectorTickets(ctx, session.clientId, tickets);
      }
    },
  });
  afterCommit?.();
  return recorded;
}
