import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { accountRoutes } from './account/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { backupRoutes } from './backup/routes.ts';
import { billingRoutes } from './billing/routes.ts';
import { budgetRoutes } from './budget/routes.ts';
import { budgetPixPaid } from './budget/service.ts';
import { campaignRoutes } from './campaign/routes.ts';
import { campaignsInCategory } from './campaign/service.ts';
import { campaignCategoryRoutes } from './campaign-category/routes.ts';
import { cashRegisterRoutes } from './cash-register/routes.ts';
import { cepRoutes } from './cep/routes.ts';
import { comandaRoutes } from './comanda/routes.ts';
import { applyCouvertToOpenTabs } from './comanda/service.ts';
import { couponRoutes } from './coupon/routes.ts';
import { customerRoutes } from './customer/routes.ts';
import { checkUncheckedNumbers } from './customer/whatsapp.ts';
import { deliveryPixPaid } from './delivery/pix.ts';
import { deliveryRoutes } from './delivery/routes.ts';
import { cancelOrderOfSale, createOrderOfSale } from './delivery/service.ts';
import { withSettledDeliveries } from './delivery/settlement.ts';
import { feeSimulatorRoutes } from './fee-simulator/routes.ts';
import { financeRoutes } from './finance/routes.ts';
import { cancelForSale, issueInBackground } from './fiscal/issue.ts';
import { fiscalRoutes } from './fiscal/routes.ts';
import { fieldsOfProducts, mergeProductFiscal } from './fiscal/service.ts';
import { healthRoutes } from './health/routes.ts';
import { homeRoutes } from './home/routes.ts';
import { labelRoutes } from './label/routes.ts';
import { marketplaceRoutes } from './marketplace/routes.ts';
import { notificationRoutes } from './notification/routes.ts';
import { payableRoutes } from './payable/routes.ts';
import { pixRoutes } from './pix/routes.ts';
import { onPixChargePaid, pixChargeOfSale, pixRefundOfCanceledSale } from './pix/service.ts';
import { printingRoutes } from './printing/routes.ts';
import { groupProductCount } from './product/additionalGroups.ts';
import { productsInCategory, productsOfBrand } from './product/catalogCounts.ts';
import { countProducts } from './product/planCount.ts';
import { productRoutes } from './product/routes.ts';
import { productAdditionalRoutes } from './product-additional/routes.ts';
import { productBrandRoutes } from './product-brand/routes.ts';
import { productCategoryRoutes } from './product-category/routes.ts';
import { receivableFigures } from './receivable/customerFigures.ts';
import { receivableRoutes } from './receivable/routes.ts';
import { reportRoutes } from './report/routes.ts';
import type { SaleCanceled } from './sale/cancel.ts';
import { onSaleCanceledCommitted, onSaleCommitted } from './sale/followUps.ts';
import { saleOfInstallments } from './sale/installments.ts';
import { registerSaleFigures } from './sale/registerFigures.ts';
import { saleRoutes } from './sale/routes.ts';
import { rebuildSaleSummary } from './sale/summary.ts';
import { settingsRoutes } from './settings/routes.ts';
import { shippingRoutes } from './shipping/routes.ts';
import { shopExportRoutes } from './shop-export/routes.ts';
import { stockRoutes } from './stock/routes.ts';
import { userRoutes } from './user/routes.ts';
import { whatsappRoutes } from './whatsapp/routes.ts';

/**
 * The API module list: a new domain adds one line here. A module below another never imports it:
 * what it needs from the module above is handed over here (cash-register gets the sale figures of a
 * register, receivable the sale an installment belongs to, product-additional how many products
 * offer a group, customer its receivable figures).
 */
export const MODULES: ((ctx: AppContext) => FastifyPluginAsyncZod)[] = [
  healthRoutes,
  authRoutes,
  accountRoutes,
  notificationRoutes,
  couponRoutes,
  (ctx) => productCategoryRoutes(ctx, productsInCategory),
  (ctx) => productBrandRoutes(ctx, productsOfBrand),
  (ctx) => productAdditionalRoutes(ctx, groupProductCount),
  // Issue 32: the NFC-e columns of a product import are kept (and exported) by the fiscal module.
  (ctx) => productRoutes(ctx, mergeProductFiscal, fieldsOfProducts),
  cepRoutes,
  (ctx) => customerRoutes(ctx, receivableFigures),
  userRoutes,
  (ctx) => cashRegisterRoutes(ctx, withSettledDeliveries(registerSaleFigures)),
  // A canceled sale's delivery order is canceled and its dynamic Pix refunded (issue 33); a PDV sale's
  // dynamic Pix must be the attempt's paid charge.
  (ctx) =>
    saleRoutes(
      ctx,
      createOrderOfSale,
      bothCanceled(cancelOrderOfSale(ctx), pixRefundOfCanceledSale(ctx)),
      pixChargeOfSale,
    ),
  (ctx) => receivableRoutes(ctx, saleOfInstallments),
  stockRoutes,
  feeSimulatorRoutes,
  shippingRoutes,
  (ctx) => settingsRoutes(ctx, rebuildSaleSummary, applyCouvertToOpenTabs),
  printingRoutes,
  (ctx) => billingRoutes(ctx, countProducts),
  // Customers saved before the shop's number connected are checked once it connects (issue 30).
  (ctx) => whatsappRoutes(ctx, (clientId) => checkUncheckedNumbers(ctx, clientId)),
  (ctx) => campaignCategoryRoutes(ctx, campaignsInCategory),
  campaignRoutes,
  homeRoutes,
  // Issue 33: a Pix still arriving for a canceled or converted budget goes to reconciliation.
  (ctx) => {
    onPixChargePaid(ctx, budgetPixPaid);
    return budgetRoutes(ctx, createOrderOfSale);
  },
  comandaRoutes,
  // Issue 33: an order's Pix QR dinâmico, once the bank confirms it, is applied by delivery (pix's hook).
  (ctx) => {
    onPixChargePaid(ctx, deliveryPixPaid(ctx));
    return deliveryRoutes(ctx);
  },
  shopExportRoutes,
  backupRoutes,
  marketplaceRoutes,
  pixRoutes,
  // Issue 32: every recorded sale's NFC-e, after its commit (the sale seam's follow-up).
  (ctx) => {
    onSaleCommitted(ctx, (c, session, sale) => issueInBackground(c, session, sale.id));
    onSaleCanceledCommitted(ctx, (c, session, sale) => {
      cancelForSale(c, session, sale.id, sale.reason).catch(() => undefined);
    });
    return fiscalRoutes(ctx);
  },
  labelRoutes,
  // Issue 34: paying a bill from the till needs the register's sale figures, as its close does.
  (ctx) => payableRoutes(ctx, withSettledDeliveries(registerSaleFigures)),
  financeRoutes,
  // Issue 34: the sales reports (Financeiro > Relatórios), read only.
  reportRoutes,
];

/** Two modules' work on a canceled sale, in its transaction; both signals after the commit. */
function bothCanceled(first: SaleCanceled, second: SaleCanceled): SaleCanceled {
  return async (tx, clientId, saleId, reason) => {
    const a = await first(tx, clientId, saleId, reason);
    const b = await second(tx, clientId, saleId, reason);
    return () => {
      a?.();
      b?.();
    };
  };
}
