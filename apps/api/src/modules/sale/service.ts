import { createHash } from 'node:crypto';
import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import { todayIso } from '@balcao/core/date';
import { variantName } from '@balcao/core/product';
import { type CustomerCredit, creditWarnings, type SaleReceivable } from '@balcao/core/receivable';
import {
  checkPayments,
  computeSaleTotals,
  type DeliveryAddress,
  type DiscountKind,
  type OriginSale,
  type PaymentInput,
  type Sale,
  type SaleCancelInput,
  type SaleData,
  type SaleItem,
  type SaleLineInput,
  type SalePayment,
  type SaleStatus,
  type SimpleSaleData,
  type TypeOfSale,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict, notFound, unprocessable } from '../../errors.ts';
import { insertJsonRows } from '../../lib/pg.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { resolveApproval } from '../cash-register/approval.ts';
import { recordReceipt } from '../cash-register/service.ts';
import {
  type AppliedCoupon,
  cancelCouponUses,
  checkCoupon,
  hasUseLimit,
  useCoupon,
} from '../coupon/service.ts';
import { customers, userAddresses } from '../customer/schema.ts';
import { productGridColors, productGridSizes, products, productVariants } from '../product/schema.ts';
import { productAdditionalItems } from '../product-additional/schema.ts';
import { receivables } from '../receivable/schema.ts';
import { stockMovements } from '../stock/schema.ts';
import { applyStockMovements, type LowStockAlert, notifyLowStock } from '../stock/service.ts';
import { inOrder } from './inOrder.ts';
import { saleIdempotencyKeys, saleItems, salePayments, sales } from './schema.ts';

export const SALE_NOT_FOUND = 'Venda não encontrada';
export const SALE_ALREADY_CANCELED = 'Esta venda já está cancelada';
export const IDEMPOTENCY_KEY_REUSED =
  'Esta Idempotency-Key já foi usada em outra venda: gere uma nova chave para uma nova venda';
export const CANCEL_NEEDS_APPROVAL =
  'Cancelar uma venda precisa da aprovação de um gerente: informe o email e a senha de um Administrador ou Gerente';
export const CANCEL_APPROVAL_REFUSED =
  'Aprovação recusada: email ou senha de Administrador/Gerente incorretos';

/** Units sold in fractions (kg, litres, metres): any other needs a whole quantity. */
const FRACTIONAL_UNITS = ['kg', 'g', 'l', 'ml', 'm', 'm2'];

type ItemRow = Omit<typeof saleItems.$inferSelect, 'saleId' | 'id'>;

type PreparedSale = {
  typeOfSale: TypeOfSale;
  originSale: OriginSale;
  isSimple: boolean;
  customerId: number | null;
  sellerId: number | null;
  deliveryAddress: DeliveryAddress | null;
  discountType: DiscountKind;
  discountValue: number;
  couponCode: string | null;
  freightCents: number;
  notes: string | null;
  payments: PaymentInput[];
  cashDepositAmountCents: number;
  /** Lines with their prices from the catalog. */
  lines: (SaleLineInput & { row: ItemRow; stock: { productId: number; variantId: number | null } | null })[];
};

export type CheckoutResult = { sale: Sale; replayed: boolean };

function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** Rows of a raw query (PGlite and node-postgres both answer `{rows}`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const fail = (message: string, path: string) => new AppError(422, message, [{ path, message }]);

// ---------------------------------------------------------------------------------------------------
// Reading

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** Which payment method each installment belongs to (payments keep their first installment number). */
function methodOfInstallment(
  payments: (typeof salePayments.$inferSelect)[],
  installment: number,
): PaymentMethod {
  const deferred = payments
    .filter((p) => p.firstInstallment !== null)
    .sort((a, b) => (a.firstInstallment ?? 0) - (b.firstInstallment ?? 0));
  let method: PaymentMethod = 'creditShop';
  for (const p of deferred) if ((p.firstInstallment ?? 0) <= installment) method = p.method as PaymentMethod;
  return method;
}

type SaleRows = {
  sale: typeof sales.$inferSelect;
  customer: { name: string; document: string | null; phone: string | null } | null;
  items: (typeof saleItems.$inferSelect)[];
  payments: (typeof salePayments.$inferSelect)[];
  receivables: (typeof receivables.$inferSelect)[];
  /** Names of the users the sale points at (operator, seller, who canceled). */
  names: Map<number, string>;
};

/** The whole sale: items, payments, receivables, customer, users. 404 for another client's. */
export async function findSale(db: Executor, clientId: number, id: number): Promise<Sale> {
  const [row] = await db
    .select({
      sale: sales,
      customerName: customers.name,
      customerDocument: customers.document,
      customerPhone: customers.phone,
    })
    .from(sales)
    .leftJoin(customers, eq(customers.id, sales.customerId))
    .where(and(eq(sales.id, id), eq(sales.clientId, clientId)));
  if (!row) throw notFound(SALE_NOT_FOUND);
  const s = row.sale;
  const userIds = [s.userId, s.sellerId, s.canceledByUserId].filter((v): v is number => v !== null);
  const [items, payments, receivableRows, userRows] = await Promise.all([
    db.select().from(saleItems).where(eq(saleItems.saleId, id)).orderBy(asc(saleItems.position)),
    db.select().from(salePayments).where(eq(salePayments.saleId, id)).orderBy(asc(salePayments.position)),
    db
      .select()
      .from(receivables)
      .where(and(eq(receivables.saleId, id), eq(receivables.clientId, clientId)))
      .orderBy(asc(receivables.installment)),
    db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)),
  ]);
  return toSale({
    sale: s,
    customer:
      s.customerId !== null
        ? {
            name: row.customerName ?? '',
            document: row.customerDocument ?? null,
            phone: row.customerPhone ?? null,
          }
        : null,
    items,
    payments,
    receivables: receivableRows,
    names: new Map(userRows.map((u) => [u.id, u.name])),
  });
}

/** Rows -> the API's sale (the checkout builds it from the rows it just inserted: no read back). */
function toSale({
  sale: s,
  customer,
  items,
  payments,
  receivables: receivableRows,
  names: name,
}: SaleRows): Sale {
  const today = todayIso();
  return {
    id: s.id,
    number: s.number,
    status: s.status as SaleStatus,
    typeOfSale: s.typeOfSale as TypeOfSale,
    originSale: s.originSale as OriginSale,
    isSimple: s.isSimple,
    customer: s.customerId !== null && customer ? { id: s.customerId, ...customer } : null,
    user: { id: s.userId, name: name.get(s.userId) ?? '' },
    seller: s.sellerId !== null ? { id: s.sellerId, name: name.get(s.sellerId) ?? '' } : null,
    cashRegisterId: s.cashRegisterId,
    items: items.map(
      (i): SaleItem => ({
        id: i.id,
        productId: i.productId,
        variantId: i.variantId,
        description: i.description,
        variantName: i.variantName,
        sku: i.sku,
        barcode: i.barcode,
        unit: i.unit,
        quantity: Number(i.quantity),
        unitPriceCents: i.unitPriceCents,
        additionals: i.additionals as SaleItem['additionals'],
        unitTotalCents: i.unitTotalCents,
        grossCents: i.grossCents,
        discountType: i.discountType as DiscountKind,
        discountValue: i.discountValue,
        discountCents: i.discountCents,
        totalCents: i.totalCents,
        notes: i.notes,
      }),
    ),
    payments: payments.map(
      (p): SalePayment => ({
        id: p.id,
        method: p.method as PaymentMethod,
        amountCents: p.amountCents,
        numberInstallments: p.numberInstallments,
        dueDate: p.dueDate,
      }),
    ),
    receivables: receivableRows.map(
      (r): SaleReceivable => ({
        id: r.id,
        installment: r.installment,
        method: methodOfInstallment(payments, r.installment),
        amountCents: r.amountCents,
        dueDate: r.dueDate,
        status: r.status as SaleReceivable['status'],
        paidAt: iso(r.paidAt),
        isOverdue: r.status === 'pending' && r.dueDate < today,
      }),
    ),
    totalItems: s.totalItems,
    totalQuantity: Number(s.totalQuantity),
    itemsDiscountCents: s.itemsDiscountCents,
    totalCents: s.totalCents,
    discountType: s.discountType as DiscountKind,
    discountValue: s.discountValue,
    discountCents: s.discountCents,
    coupon: s.couponId !== null ? { id: s.couponId, code: s.couponCode ?? '' } : null,
    couponDiscountCents: s.couponDiscountCents,
    freightCents: s.freightCents,
    finalAmountCents: s.finalAmountCents,
    cashDepositAmountCents: s.cashDepositAmountCents,
    changeCents: s.changeCents,
    deliveryAddress: (s.deliveryAddress as DeliveryAddress | null) ?? null,
    notes: s.notes,
    cancelReason: s.cancelReason,
    canceledAt: iso(s.canceledAt),
    canceledBy:
      s.canceledByUserId !== null
        ? { id: s.canceledByUserId, name: name.get(s.canceledByUserId) ?? '' }
        : null,
    createdAt: s.createdAt.toISOString(),
    finishedAt: iso(s.finishedAt),
    updatedAt: s.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Customer credit (warnings before a crediário sale)

export async function customerCredit(
  db: Executor,
  clientId: number,
  customerId: number,
  creditShopCents = 0,
): Promise<CustomerCredit> {
  const today = todayIso();
  const [row] = await db
    .select({
      creditLimitCents: customers.creditLimitCents,
      pendingCents: sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending')`,
      overdueCents: sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from receivables r where r.client_id = ${clientId} and r.customer_id = ${customerId} and r.status = 'pending' and r.due_date < ${today})`,
    })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.clientId, clientId)));
  if (!row) throw notFound('Cliente não encontrado');
  const credit = {
    isDelinquent: Number(row.overdueCents) > 0,
    overdueCents: Number(row.overdueCents),
    pendingCents: Number(row.pendingCents),
    creditLimitCents: row.creditLimitCents,
  };
  return {
    customerId,
    ...credit,
    availableCents: credit.creditLimitCents - credit.pendingCents,
    warnings: creditWarnings(credit, creditShopCents),
  };
}

// ---------------------------------------------------------------------------------------------------
// Checkout

/** Prices, names and rules of the catalog for the requested lines (inside the transaction). */
async function prepareItems(tx: Executor, clientId: number, data: SaleData): Promise<PreparedSale['lines']> {
  const productIds = [...new Set(data.items.map((i) => i.productId))];
  const variantIds = [...new Set(data.items.flatMap((i) => (i.variantId ? [i.variantId] : [])))];
  const additionalIds = [...new Set(data.items.flatMap((i) => i.additionals.map((a) => a.id)))];
  const [productRows, variantRows, additionalRows] = await inOrder([
    tx
      .select({
        id: products.id,
        name: products.name,
        sku: products.sku,
        barcode: products.barcode,
        unit: products.unit,
        productType: products.productType,
        salePriceCents: products.salePriceCents,
        active: products.active,
        hasVariants: sql<boolean>`exists (select 1 from product_variants v where v.product_id = "products"."id")`,
        /** Active add-on groups of the product (one query for the whole cart). */
        groups: sql<unknown>`(select coalesce(json_agg(json_build_object('groupId', g.id, 'name', g.name, 'minQuantity', g.min_quantity, 'maxQuantity', g.max_quantity)), '[]'::json)
          from product_additional_links l join product_additional_groups g on g.id = l.group_id
          where l.product_id = "products"."id" and g.client_id = "products"."client_id" and g.active)`,
      })
      .from(products)
      .where(and(eq(products.clientId, clientId), inArray(products.id, productIds))),
    variantIds.length
      ? tx
          .select({
            id: productVariants.id,
            productId: productVariants.productId,
            sku: productVariants.sku,
            barcode: productVariants.barcode,
            priceCents: productVariants.priceCents,
            active: productVariants.active,
            color: productGridColors.name,
            size: productGridSizes.name,
          })
          .from(productVariants)
          .leftJoin(productGridColors, eq(productGridColors.id, productVariants.colorId))
          .leftJoin(productGridSizes, eq(productGridSizes.id, productVariants.sizeId))
          .where(and(eq(productVariants.clientId, clientId), inArray(productVariants.id, variantIds)))
      : Promise.resolve([]),
    additionalIds.length
      ? tx
          .select({
            id: productAdditionalItems.id,
            groupId: productAdditionalItems.groupId,
            name: productAdditionalItems.name,
            priceCents: productAdditionalItems.priceCents,
            active: productAdditionalItems.active,
          })
          .from(productAdditionalItems)
          .where(
            and(
              eq(productAdditionalItems.clientId, clientId),
              inArray(productAdditionalItems.id, additionalIds),
            ),
          )
      : Promise.resolve([]),
  ]);
  const productsById = new Map(productRows.map((p) => [p.id, p]));
  const variantsById = new Map(variantRows.map((v) => [v.id, v]));
  const additionalsById = new Map(additionalRows.map((a) => [a.id, a]));

  return data.items.map((item, index) => {
    const path = `items.${index}`;
    const product = productsById.get(item.productId);
    if (!product) throw fail('Produto não encontrado', `${path}.productId`);
    if (!product.active) throw fail(`O produto ${product.name} está inativo`, `${path}.productId`);
    let variant: (typeof variantRows)[number] | null = null;
    if (item.variantId !== null) {
      variant = variantsById.get(item.variantId) ?? null;
      if (!variant || variant.productId !== product.id)
        throw fail('Variação não encontrada', `${path}.variantId`);
      if (!variant.active) throw fail(`Esta variação de ${product.name} está inativa`, `${path}.variantId`);
    } else if (product.hasVariants) {
      throw fail(`Escolha a variação (cor/tamanho) de ${product.name}`, `${path}.variantId`);
    }
    const fractional = product.productType === 'weighed' || FRACTIONAL_UNITS.includes(product.unit);
    if (!fractional && !Number.isInteger(item.quantity)) {
      throw fail(`${product.name} é vendido por unidade: use uma quantidade inteira`, `${path}.quantity`);
    }
    // Add-ons: items of active groups linked to this product, each group within its min..max.
    const groups = (typeof product.groups === 'string' ? JSON.parse(product.groups) : product.groups) as {
      groupId: number;
      name: string;
      minQuantity: number;
      maxQuantity: number;
    }[];
    const chosen: SaleItem['additionals'] = [];
    const perGroup = new Map<number, number>();
    for (const a of item.additionals) {
      const additional = additionalsById.get(a.id);
      const group = additional && groups.find((g) => g.groupId === additional.groupId);
      if (!additional || !group || !additional.active) {
        throw fail(`Adicional indisponível para ${product.name}`, `${path}.additionals`);
      }
      perGroup.set(group.groupId, (perGroup.get(group.groupId) ?? 0) + a.quantity);
      chosen.push({
        id: additional.id,
        name: additional.name,
        priceCents: additional.priceCents,
        quantity: a.quantity,
      });
    }
    for (const g of groups) {
      const n = perGroup.get(g.groupId) ?? 0;
      if (n < g.minQuantity || n > g.maxQuantity) {
        const range =
          g.minQuantity === g.maxQuantity ? `${g.minQuantity}` : `${g.minQuantity} a ${g.maxQuantity}`;
        throw fail(
          `Escolha ${range} ${g.maxQuantity === 1 ? 'item' : 'itens'} em ${g.name} (${product.name})`,
          `${path}.additionals`,
        );
      }
    }
    const unitPriceCents = variant?.priceCents ?? product.salePriceCents;
    const line: SaleLineInput = {
      unitPriceCents,
      quantity: item.quantity,
      additionals: chosen,
      discountType: item.discountType,
      discountValue: item.discountValue,
    };
    return {
      ...line,
      stock: { productId: product.id, variantId: variant?.id ?? null },
      row: {
        clientId,
        position: index,
        productId: product.id,
        variantId: variant?.id ?? null,
        description: product.name,
        variantName: variant ? variantName(variant.color, variant.size) || null : null,
        sku: variant?.sku ?? product.sku,
        barcode: variant?.barcode ?? product.barcode,
        unit: product.unit,
        quantity: item.quantity,
        unitPriceCents,
        additionals: chosen,
        discountType: item.discountType,
        discountValue: item.discountValue,
        notes: item.notes,
        // filled from the totals
        unitTotalCents: 0,
        grossCents: 0,
        discountCents: 0,
        totalCents: 0,
      },
    };
  });
}

/** The seller credited: an active user of the client (422 otherwise). Returns the name. */
async function findSeller(tx: Executor, clientId: number, sellerId: number | null): Promise<string | null> {
  if (sellerId === null) return null;
  const [seller] = await tx
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.id, sellerId), eq(users.clientId, clientId), eq(users.active, true)));
  if (!seller) throw fail('Vendedor não encontrado', 'sellerId');
  return seller.name;
}

/** The sale's customer, of this client (422 otherwise). */
async function findSaleCustomer(tx: Executor, clientId: number, customerId: number | null) {
  if (customerId === null) return null;
  const [customer] = await tx
    .select({ name: customers.name, document: customers.document, phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.clientId, clientId)));
  if (!customer) throw fail('Cliente não encontrado', 'customerId');
  return customer;
}

type LockedRegister = {
  id: number;
  stockManagement: boolean;
  allowNegativeStock: boolean;
  userName: string;
  saleId: number;
  /** 0 when the Idempotency-Key was already there (another request's sale: replay it). */
  claimed: number;
};

/**
 * One statement, the checkout's first: claims the Idempotency-Key (ON CONFLICT DO NOTHING: a racing
 * retry waits here until the first commits) and reads the user's open register (FOR SHARE: closing it
 * waits for this sale) with the client's stock settings, the user's name and the new sale's id.
 * Null without an open register.
 */
async function claimAndLockRegister(
  tx: Executor,
  session: SessionUser,
  claim: { key: string; hash: string } | null,
): Promise<LockedRegister | null> {
  const { clientId, userId } = session;
  const claimCte = claim
    ? sql`with claim as (insert into sale_idempotency_keys (client_id, key, request_hash)
        values (${clientId}, ${claim.key}, ${claim.hash}) on conflict do nothing returning key) `
    : sql``;
  const claimed = claim ? sql`(select count(*) from claim)::int` : sql`1`;
  const [row] = rowsOf<LockedRegister>(
    await tx.execute(sql`${claimCte}select r.id, c.stock_management as "stockManagement",
        coalesce(s.allow_negative_stock, false) as "allowNegativeStock", u.name as "userName",
        nextval(pg_get_serial_sequence('sales', 'id'))::int as "saleId", ${claimed} as claimed
      from cash_registers r
      join clients c on c.id = r.client_id
      join users u on u.id = r.user_id
      left join stock_settings s on s.client_id = r.client_id
      where r.client_id = ${clientId} and r.user_id = ${userId} and r.status = 'open'
      limit 1 for share of r`),
  );
  return row ? { ...row, saleId: Number(row.saleId), claimed: Number(row.claimed) } : null;
}

async function findDeliveryAddress(
  tx: Executor,
  clientId: number,
  customerId: number | null,
  addressId: number | null,
): Promise<DeliveryAddress | null> {
  if (addressId === null || customerId === null) return null;
  const [a] = await tx
    .select()
    .from(userAddresses)
    .where(
      and(
        eq(userAddresses.id, addressId),
        eq(userAddresses.customerId, customerId),
        eq(userAddresses.clientId, clientId),
      ),
    );
  if (!a) throw fail('Endereço de entrega não encontrado para este cliente', 'deliveryAddressId');
  return {
    id: a.id,
    zipCode: a.zipCode,
    street: a.street,
    number: a.number,
    complement: a.complement,
    neighborhood: a.neighborhood,
    city: a.city,
    state: a.state,
  };
}

type RecordOptions = { idempotencyKey?: string | null; body: unknown };

/**
 * The checkout: ONE transaction writes the sale, its items, payments, receivables (one per crediário
 * or boleto installment), the coupon use and the stock movements.
 *
 * Order inside the transaction, the same for every sale so concurrent checkouts queue instead of
 * deadlocking, and arranged so the rows every till shares are held the shortest (row locks last until
 * the commit): the idempotency key -> the user's open register (FOR SHARE) -> catalog, customer and
 * coupon reads (no locks) -> the sale's own rows (sale with a placeholder number, items, payments,
 * receivables, key -> sale) -> stock rows (FOR NO KEY UPDATE, by id) -> the coupon row (FOR UPDATE,
 * only for coupons with use limits) -> the client's sale counter, which also numbers the sale, as the
 * last statement before the commit. Numbers stay gap-free: a sale that fails rolls its counter back.
 */
async function recordSale(
  ctx: AppContext,
  session: SessionUser,
  build: (tx: Executor) => Promise<PreparedSale>,
  options: RecordOptions,
): Promise<CheckoutResult & { lowStock: LowStockAlert[] }> {
  const { db } = ctx;
  const { clientId } = session;
  const hash = requestHash(options.body);
  type Outcome = { replayOf: number } | { sale: Sale; lowStock: LowStockAlert[] };
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const key = options.idempotencyKey ?? null;
    const register = await claimAndLockRegister(tx, session, key ? { key, hash } : null);
    if (key && (!register || register.claimed === 0)) {
      // The key was there: another request with it committed first (the claim waited for it), so
      // answer its sale, even when the register has been closed since. A key row without a sale is
      // this request's own claim (no open register).
      const [first] = await tx
        .select()
        .from(saleIdempotencyKeys)
        .where(and(eq(saleIdempotencyKeys.clientId, clientId), eq(saleIdempotencyKeys.key, key)));
      if (first?.saleId) {
        if (first.requestHash !== hash) throw unprocessable(IDEMPOTENCY_KEY_REUSED);
        return { replayOf: first.saleId };
      }
      if (register) throw conflict('Esta venda ainda está sendo registrada: tente novamente');
    }
    if (!register) throw unprocessable(CASH_REGISTER_MESSAGES.mustOpen);
    const { saleId } = register;
    const prepared = await build(tx);
    const customer = await findSaleCustomer(tx, clientId, prepared.customerId);
    const sellerName = await findSeller(tx, clientId, prepared.sellerId);
    const today = todayIso();
    const withoutCoupon = computeSaleTotals({
      lines: prepared.lines,
      discountType: prepared.discountType,
      discountValue: prepared.discountValue,
      freightCents: prepared.freightCents,
    });

    // The coupon's rules against this sale, without a lock: its use is recorded (and, for coupons
    // with use limits, checked again under the row lock) after the sale's own rows.
    const couponRequest = prepared.couponCode
      ? {
          code: prepared.couponCode,
          subtotalCents: withoutCoupon.totalCents,
          customerId: prepared.customerId,
          today,
          saleId,
        }
      : null;
    const checked: AppliedCoupon | null = couponRequest
      ? await checkCoupon(tx, clientId, couponRequest, { forSale: true })
      : null;
    const couponDiscountCents = checked?.discountCents ?? 0;
    const couponId = checked?.coupon.id ?? null;
    const totals = computeSaleTotals({
      lines: prepared.lines,
      discountType: prepared.discountType,
      discountValue: prepared.discountValue,
      couponDiscountCents,
      freightCents: prepared.freightCents,
    });
    if (totals.discountCents + totals.couponDiscountCents > totals.totalCents) {
      throw fail('O desconto não pode ser maior que o total dos itens', 'discountValue');
    }
    for (const [i, line] of totals.lines.entries()) {
      if (line.discountCents > line.grossCents) {
        throw fail('O desconto do item não pode ser maior que o valor do item', `items.${i}.discountValue`);
      }
    }
    if (totals.finalAmountCents > 2_147_483_647) throw fail('Valor da venda muito alto', 'items');
    const paid = checkPayments({
      finalAmountCents: totals.finalAmountCents,
      payments: prepared.payments,
      cashDepositAmountCents: prepared.cashDepositAmountCents,
      customerId: prepared.customerId,
      typeOfSale: prepared.typeOfSale,
      today,
    });
    if (!paid.ok) throw new AppError(422, paid.message, paid.issues);

    // Credit warnings: the customer's situation before this sale against its crediário amount.
    const creditShopCents = paid.payments
      .filter((p) => p.method === 'creditShop')
      .reduce((sum, p) => sum + p.amountCents, 0);
    const warnings =
      prepared.customerId !== null && creditShopCents > 0
        ? (await customerCredit(tx, clientId, prepared.customerId, creditShopCents)).warnings
        : [];

    // The sale's own rows: nobody else waits for them. The number is a placeholder (-id: unique,
    // never shown) until the counter gives the real one, last.
    const now = new Date();
    const saleValues = {
      id: saleId,
      clientId,
      number: -saleId,
      userId: session.userId,
      sellerId: prepared.sellerId,
      customerId: prepared.customerId,
      cashRegisterId: register.id,
      status: paid.status,
      typeOfSale: prepared.typeOfSale,
      originSale: prepared.originSale,
      isSimple: prepared.isSimple,
      totalItems: totals.totalItems,
      totalQuantity: totals.totalQuantity,
      itemsDiscountCents: totals.itemsDiscountCents,
      totalCents: totals.totalCents,
      discountType: prepared.discountType,
      discountValue: prepared.discountValue,
      discountCents: totals.discountCents,
      couponId,
      couponCode: prepared.couponCode ? prepared.couponCode.toUpperCase() : null,
      couponDiscountCents,
      freightCents: totals.freightCents,
      finalAmountCents: totals.finalAmountCents,
      cashDepositAmountCents: paid.cashDepositAmountCents,
      changeCents: paid.changeCents,
      deliveryAddress: prepared.deliveryAddress,
      notes: prepared.notes,
      cancelReason: null,
      canceledAt: null,
      canceledByUserId: null,
      cancelApprovedByUserId: null,
      finishedAt: paid.status === 'finished' ? now : null,
      createdAt: now,
      updatedAt: now,
    } satisfies typeof sales.$inferSelect;
    const itemValues = prepared.lines.map((l, i) => ({
      ...l.row,
      saleId,
      unitTotalCents: totals.lines[i].unitTotalCents,
      grossCents: totals.lines[i].grossCents,
      discountCents: totals.lines[i].discountCents,
      totalCents: totals.lines[i].totalCents,
    }));
    let installment = 1;
    const receivableRows: (typeof receivables.$inferInsert)[] = [];
    const paymentValues = paid.payments.map((p, position) => {
      const firstInstallment = p.installments.length > 0 ? installment : null;
      for (const inst of p.installments) {
        receivableRows.push({
          clientId,
          customerId: prepared.customerId as number,
          saleId,
          installment: installment++,
          amountCents: inst.amountCents,
          dueDate: inst.dueDate,
          status: 'pending',
        });
      }
      return {
        saleId,
        clientId,
        position,
        method: p.method,
        amountCents: p.amountCents,
        numberInstallments: p.numberInstallments,
        dueDate: p.dueDate,
        firstInstallment,
      };
    });
    // The sale, its items and payments and the key -> sale in one statement (rows as JSON: one
    // round trip, one parameter each); the answer is built from these values and the ids.
    const noPayment = sql`select null::int as id, null::int as position where false`;
    const [ids] = rowsOf<{ items: number[]; payments: number[] | null }>(
      await tx.execute(sql`with
        s as (${insertJsonRows(sales, [saleValues])} returning id),
        i as (${insertJsonRows(saleItems, itemValues)} returning id, position),
        p as (${paymentValues.length > 0 ? sql`${insertJsonRows(salePayments, paymentValues)} returning id, position` : noPayment}),
        k as (update sale_idempotency_keys set sale_id = (select id from s)
              where client_id = ${clientId} and key = ${key} returning key)
        select (select json_agg(id order by position) from i) as items,
               (select json_agg(id order by position) from p) as payments`),
    );
    const itemRows = itemValues.map((row, i) => ({ ...row, id: Number(ids.items[i]) }));
    const paymentsInserted = paymentValues.map((row, i) => ({ ...row, id: Number(ids.payments?.[i]) }));
    const receivablesInserted =
      receivableRows.length > 0 ? await tx.insert(receivables).values(receivableRows).returning() : [];

    // Shared rows from here to the commit: stock levels (rows locked by id), the coupon, the counter.
    let lowStock: LowStockAlert[] = [];
    const stockLines = prepared.lines.filter((l) => l.stock);
    if (stockLines.length > 0 && register.stockManagement) {
      // The stock service applies the client's allowNegativeStock setting.
      const result = await applyStockMovements(
        tx,
        { clientId, userId: session.userId },
        stockLines.map((l) => ({
          productId: l.stock!.productId,
          variantId: l.stock!.variantId,
          type: 'sale' as const,
          quantity: l.quantity,
          saleId,
        })),
        { settings: register, lastLevelWrite: true },
      );
      lowStock = result.lowStock;
    }
    // A coupon with use limits is locked and checked again; one without is recorded by the last
    // statement, with the number.
    const limited = checked !== null && hasUseLimit(checked.coupon);
    if (couponRequest && limited) await useCoupon(tx, clientId, couponRequest, checked);
    const couponUse =
      checked && !limited
        ? sql`, coupon_use as (insert into coupon_uses (coupon_id, client_id, sale_id, customer_id, discount_cents)
            values (${checked.coupon.id}, ${clientId}, ${saleId}, ${prepared.customerId}, ${checked.discountCents}))`
        : sql``;
    const [{ number }] = rowsOf<{ number: number }>(
      await tx.execute(
        sql`with counter as (
              insert into sale_counters (client_id, last) values (${clientId}, 1)
              on conflict (client_id) do update set last = sale_counters.last + 1
              returning last)
            ${couponUse}
            update sales set number = counter.last from counter
            where sales.id = ${saleId} returning sales.number as "number"`,
      ),
    );

    // The answer is built from the rows just written (no read back after the commit).
    const names = new Map([[session.userId, register.userName]]);
    if (prepared.sellerId !== null && sellerName !== null) names.set(prepared.sellerId, sellerName);
    const sale = toSale({
      sale: { ...saleValues, number: Number(number) },
      customer,
      items: itemRows,
      payments: paymentsInserted,
      receivables: receivablesInserted,
      names,
    });
    return { sale: { ...sale, warnings }, lowStock };
  });

  if ('replayOf' in outcome) {
    return { sale: await findSale(db, clientId, outcome.replayOf), replayed: true, lowStock: [] };
  }
  return { sale: outcome.sale, replayed: false, lowStock: outcome.lowStock };
}

/** POST /v1/sale. */
export async function checkout(
  ctx: AppContext,
  session: SessionUser,
  data: SaleData,
  options: RecordOptions,
): Promise<CheckoutResult> {
  const result = await recordSale(
    ctx,
    session,
    async (tx) => ({
      typeOfSale: data.typeOfSale,
      originSale: 'pdv',
      isSimple: false,
      customerId: data.customerId,
      sellerId: data.sellerId,
      deliveryAddress:
        data.typeOfSale === 'delivery'
          ? await findDeliveryAddress(tx, session.clientId, data.customerId, data.deliveryAddressId)
          : null,
      discountType: data.discountType,
      discountValue: data.discountValue,
      couponCode: data.couponCode,
      freightCents: data.typeOfSale === 'delivery' ? data.freightCents : 0,
      notes: data.notes,
      payments: data.payments,
      cashDepositAmountCents: data.cashDepositAmountCents,
      lines: await prepareItems(tx, session.clientId, data),
    }),
    options,
  );
  notifyLowStock(ctx.notify, session.clientId, result.lowStock);
  return { sale: result.sale, replayed: result.replayed };
}

/** POST /v1/sale/simple: one free-text line, no catalog, stock or coupon. */
export async function checkoutSimple(
  ctx: AppContext,
  session: SessionUser,
  data: SimpleSaleData,
  options: RecordOptions,
): Promise<CheckoutResult> {
  const { sale, replayed } = await recordSale(
    ctx,
    session,
    async () => ({
      typeOfSale: 'store',
      originSale: 'pdv',
      isSimple: true,
      customerId: data.customerId,
      sellerId: null,
      deliveryAddress: null,
      discountType: 'fixed_amount',
      discountValue: 0,
      couponCode: null,
      freightCents: 0,
      notes: data.notes,
      payments: data.payments,
      cashDepositAmountCents: data.cashDepositAmountCents,
      lines: [
        {
          unitPriceCents: data.valueCents,
          quantity: 1,
          stock: null,
          row: {
            clientId: session.clientId,
            position: 0,
            productId: null,
            variantId: null,
            description: data.description,
            variantName: null,
            sku: null,
            barcode: null,
            unit: 'un',
            quantity: 1,
            unitPriceCents: data.valueCents,
            additionals: [],
            discountType: 'fixed_amount',
            discountValue: 0,
            notes: null,
            unitTotalCents: 0,
            grossCents: 0,
            discountCents: 0,
            totalCents: 0,
          },
        },
      ],
    }),
    options,
  );
  return { sale, replayed };
}

// ---------------------------------------------------------------------------------------------------
// Cancel and settle

async function lockSale(tx: Executor, clientId: number, id: number) {
  const [sale] = await tx
    .select()
    .from(sales)
    .where(and(eq(sales.id, id), eq(sales.clientId, clientId)))
    .for('update');
  if (!sale) throw notFound(SALE_NOT_FOUND);
  return sale;
}

/**
 * Cancels a sale (Administrador/Gerente, or a PDV user with a manager's approval): returns the stock
 * it took (sale-cancel rows mirroring its sale rows), frees its coupon use and cancels its pending
 * receivables, in one transaction.
 */
export async function cancelSale(ctx: AppContext, session: SessionUser, id: number, input: SaleCancelInput) {
  const { db } = ctx;
  const approvedBy = await resolveApproval(
    db,
    session,
    input.approval,
    CANCEL_NEEDS_APPROVAL,
    CANCEL_APPROVAL_REFUSED,
  );
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, session.clientId, id);
    if (sale.status === 'canceled') throw conflict(SALE_ALREADY_CANCELED);
    const taken = await tx
      .select({
        productId: stockMovements.productId,
        variantId: stockMovements.variantId,
        quantity: stockMovements.quantity,
      })
      .from(stockMovements)
      .where(
        and(
          eq(stockMovements.clientId, session.clientId),
          eq(stockMovements.saleId, id),
          eq(stockMovements.type, 'sale'),
        ),
      )
      .orderBy(asc(stockMovements.id));
    if (taken.length > 0) {
      await applyStockMovements(
        tx,
        { clientId: session.clientId, userId: session.userId },
        taken.map((m) => ({
          productId: m.productId,
          variantId: m.variantId,
          type: 'sale-cancel' as const,
          quantity: String(m.quantity).replace(/^-/, ''),
          saleId: id,
          note: `Cancelamento da venda nº ${sale.number}`,
        })),
        { allowNegative: true },
      );
    }
    await cancelCouponUses(tx, session.clientId, id);
    await tx
      .update(receivables)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(
        and(
          eq(receivables.saleId, id),
          eq(receivables.clientId, session.clientId),
          eq(receivables.status, 'pending'),
        ),
      );
    await tx
      .update(sales)
      .set({
        status: 'canceled',
        cancelReason: input.reason,
        canceledAt: new Date(),
        canceledByUserId: session.userId,
        cancelApprovedByUserId: approvedBy,
        updatedAt: new Date(),
      })
      .where(eq(sales.id, id));
  });
  return findSale(db, session.clientId, id);
}

/**
 * Marks a crediário/boleto installment as paid. The amount is recorded in the user's open register
 * (as a receipt of the given method) when there is one; the sale becomes finished when nothing is
 * left pending.
 */
export async function settleReceivable(
  db: Db,
  session: SessionUser,
  saleId: number,
  receivableId: number,
  paymentMethod: PaymentMethod,
) {
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, session.clientId, saleId);
    if (sale.status === 'canceled') throw unprocessable('Esta venda está cancelada');
    const [receivable] = await tx
      .select()
      .from(receivables)
      .where(
        and(
          eq(receivables.id, receivableId),
          eq(receivables.saleId, saleId),
          eq(receivables.clientId, session.clientId),
        ),
      )
      .for('update');
    if (!receivable) throw notFound('Parcela não encontrada');
    if (receivable.status === 'finished') throw conflict('Esta parcela já foi paga');
    if (receivable.status !== 'pending') throw unprocessable('Esta parcela está cancelada');
    const now = new Date();
    await tx
      .update(receivables)
      .set({ status: 'finished', paidAt: now, updatedAt: now })
      .where(eq(receivables.id, receivableId));
    await recordReceipt(tx, session, {
      receivableId,
      method: paymentMethod,
      amountCents: receivable.amountCents,
      reason: `Parcela ${receivable.installment} da venda nº ${sale.number}`,
    });
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(receivables)
      .where(and(eq(receivables.saleId, saleId), eq(receivables.status, 'pending')));
    if (Number(left.n) === 0 && sale.status === 'pending') {
      await tx
        .update(sales)
        .set({ status: 'finished', finishedAt: now, updatedAt: now })
        .where(eq(sales.id, saleId));
    } else {
      await tx.update(sales).set({ updatedAt: now }).where(eq(sales.id, saleId));
    }
  });
  return findSale(db, session.clientId, saleId);
}

// ---------------------------------------------------------------------------------------------------
// Housekeeping

/**
 * How long an Idempotency-Key answers with its first sale. A PDV retries within seconds or minutes
 * (a timeout, a reconnect); a week also covers a till that queued a sale offline over a weekend.
 */
export const IDEMPOTENCY_KEY_DAYS = 7;

/** Forgets the keys older than IDEMPOTENCY_KEY_DAYS (the sales stay). Returns how many went. */
export async function purgeIdempotencyKeys(db: Executor, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_KEY_DAYS * 86_400_000);
  const gone = await db
    .delete(saleIdempotencyKeys)
    .where(lt(saleIdempotencyKeys.createdAt, before))
    .returning({ key: saleIdempotencyKeys.key });
  return gone.length;
}
