import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { startGet } from './lib/api.ts';
import { setPagePreloader, waitFor } from './lib/preload.ts';

type Page = LazyExoticComponent<ComponentType> & { preload: (withData: boolean) => void };

/**
 * A lazy page whose code (and first GET, `data`) can start before React renders it: the menu's
 * hover and click (lib/preload.ts). React's lazy and the preload share one import. `data` starts
 * with the code when React asks for the page first (a typed address, a reload), or at the click.
 */
function page(load: () => Promise<{ default: ComponentType }>, data?: string): Page {
  let code: Promise<{ default: ComponentType }> | null = null;
  let dataStarted = false;
  const loadCode = () => {
    code ??= load();
    return code;
  };
  const preload = (withData: boolean) => {
    if (withData && data) {
      startGet(data);
      dataStarted = true;
    }
    loadCode().catch(() => undefined);
  };
  return Object.assign(
    lazy(() => {
      if (data && !dataStarted) startGet(data);
      return waitFor(loadCode());
    }),
    { preload },
  );
}

/**
 * Page components by route name (core's ROUTES). A route without an entry shows "Em construção".
 * Every page is lazy: each route downloads only its own code.
 */
export const PAGES: Record<string, Page> = {
  login: page(() => import('./features/auth/LoginPage.tsx')),
  logout: page(() => import('./features/auth/LogoutPage.tsx')),
  'create-account': page(() => import('./features/account/CreateAccountPage.tsx')),
  'not-have-permission': page(() => import('./pages/NotHavePermissionPage.tsx')),
  'not-found': page(() => import('./pages/NotFoundPage.tsx')),
  hello: page(() => import('./pages/HelloPage.tsx')),
  home: page(() => import('./features/home/HomePage.tsx')),
  coupon: page(() => import('./features/coupon/CouponListPage.tsx')),
  'coupon-new': page(() => import('./features/coupon/CouponFormPage.tsx')),
  'coupon-edit': page(() => import('./features/coupon/CouponFormPage.tsx')),
  customer: page(() => import('./features/customer/CustomerListPage.tsx')),
  'customer-new': page(() => import('./features/customer/CustomerFormPage.tsx')),
  'customer-edit': page(() => import('./features/customer/CustomerFormPage.tsx')),
  user: page(() => import('./features/user/UserListPage.tsx')),
  'user-new': page(() => import('./features/user/UserFormPage.tsx')),
  'user-edit': page(() => import('./features/user/UserFormPage.tsx')),
  product: page(() => import('./features/product/ProductListPage.tsx')),
  'product-new': page(() => import('./features/product/ProductFormPage.tsx')),
  'product-edit': page(() => import('./features/product/ProductFormPage.tsx')),
  'product-category': page(() => import('./features/product-category/ProductCategoryListPage.tsx')),
  'product-category-new': page(() => import('./features/product-category/ProductCategoryFormPage.tsx')),
  'product-category-edit': page(() => import('./features/product-category/ProductCategoryFormPage.tsx')),
  'product-brand': page(() => import('./features/product-brand/ProductBrandListPage.tsx')),
  'product-brand-new': page(() => import('./features/product-brand/ProductBrandFormPage.tsx')),
  'product-brand-edit': page(() => import('./features/product-brand/ProductBrandFormPage.tsx')),
  'product-label': page(() => import('./features/label/LabelsPage.tsx')),
  'stock-entry': page(() => import('./features/stock/StockEntryPage.tsx')),
  'stock-exit': page(() => import('./features/stock/StockExitPage.tsx')),
  'stock-fractionate': page(() => import('./features/stock/StockFractionatePage.tsx')),
  sale: page(() => import('./features/sale/SaleListPage.tsx')),
  'sale-pdv': page(() => import('./features/pdv/PdvPage.tsx')),
  'sale-pdv-close': page(() => import('./features/cash-register/CloseRegisterPage.tsx')),
  'sale-detail': page(() => import('./features/sale/SaleDetailPage.tsx')),
  'sale-create-simple': page(() => import('./features/sale/SimpleSalePage.tsx')),
  'bank-simulator': page(() => import('./features/fee-simulator/FeeSimulatorPage.tsx')),
  'settings-shipping': page(() => import('./features/shipping/ShippingSettingsListPage.tsx')),
  'settings-shipping-crud': page(() => import('./features/shipping/ShippingSettingFormPage.tsx')),
  'settings-melhor-envio': page(() => import('./features/shipping/MelhorEnvioSettingsPage.tsx')),
  'settings-rodonaves': page(() => import('./features/shipping/RodonavesSettingsPage.tsx')),
  'freight-melhor-envio': page(() => import('./features/shipping/MelhorEnvioSimulatorPage.tsx')),
  'freight-rodonaves': page(() => import('./features/shipping/RodonavesSimulatorPage.tsx')),
  'settings-system-client': page(() => import('./features/settings/company/CompanyPage.tsx')),
  'settings-system': page(() => import('./features/settings/system/SystemPage.tsx')),
  'settings-backup': page(() => import('./features/backup/BackupPage.tsx')),
  'settings-marketplace': page(() => import('./features/marketplace/MarketplaceSettingsPage.tsx')),
  'sale-marketplace': page(() => import('./features/marketplace/MarketplaceInboxPage.tsx')),
  'settings-pix': page(() => import('./features/pix/PixAccountPage.tsx')),
  'sale-pix-reconciliation': page(() => import('./features/pix/PixReconciliationPage.tsx')),
  'settings-fiscal': page(() => import('./features/fiscal/FiscalPage.tsx')),
  payable: page(() => import('./features/payable/PayableListPage.tsx')),
  'payable-new': page(() => import('./features/payable/PayableFormPage.tsx')),
  'payable-edit': page(() => import('./features/payable/PayableFormPage.tsx')),
  supplier: page(() => import('./features/payable/SupplierListPage.tsx')),
  'supplier-new': page(() => import('./features/payable/SupplierFormPage.tsx')),
  'supplier-edit': page(() => import('./features/payable/SupplierFormPage.tsx')),
  'finance-cash-flow': page(() => import('./features/finance/CashFlowPage.tsx')),
  'finance-dre': page(() => import('./features/finance/DrePage.tsx')),
  'finance-day-close': page(() => import('./features/finance/DayClosePage.tsx')),
  'finance-categories': page(() => import('./features/payable/CategoriesPage.tsx')),
  'finance-bank-accounts': page(() => import('./features/payable/BankAccountsPage.tsx')),
  'finance-reports': page(() => import('./features/report/ReportPage.tsx')),
  'sale-reports': page(() => import('./features/report/ReportPage.tsx')),
  'settings-working-hour': page(() => import('./features/settings/working-hour/WorkingHoursPage.tsx')),
  'settings-printer': page(() => import('./features/settings/printer/PrinterSettingsPage.tsx')),
  'settings-billing': page(() => import('./features/settings/billing/BillingPage.tsx')),
  campaign: page(() => import('./features/campaign/CampaignListPage.tsx')),
  'campaign-new': page(() => import('./features/campaign/CampaignFormPage.tsx')),
  'campaign-edit': page(() => import('./features/campaign/CampaignFormPage.tsx')),
  'campaign-category': page(() => import('./features/campaign-category/CampaignCategoryListPage.tsx')),
  'campaign-category-new': page(() => import('./features/campaign-category/CampaignCategoryFormPage.tsx')),
  'campaign-category-edit': page(() => import('./features/campaign-category/CampaignCategoryFormPage.tsx')),
  'settings-whatsapp': page(() => import('./features/settings/whatsapp/WhatsappSettingsPage.tsx')),
  budget: page(() => import('./features/budget/BudgetListPage.tsx')),
  'budget-pdv': page(() => import('./features/budget/BudgetPdvPage.tsx')),
  'budget-detail': page(() => import('./features/budget/BudgetDetailPage.tsx')),
  'budget-convert': page(() => import('./features/budget/BudgetConvertPage.tsx')),
  'table-menu': page(() => import('./features/table-menu/TableMenuPage.tsx')),
  'budget-approval': page(() => import('./features/budget/BudgetApprovalPage.tsx')),
  // The board's tabs are asked for with its code, not after it (bench/RESULTS.md, issue 16).
  'sale-command': page(() => import('./features/comanda/ComandaBoardPage.tsx'), '/comanda'),
  'sale-command-new': page(() => import('./features/comanda/ComandaOpenPage.tsx')),
  'sale-command-edit': page(() => import('./features/comanda/ComandaPage.tsx')),
  'sale-kds': page(() => import('./features/kds/KdsPage.tsx')),
  'sale-waiter-pdv': page(() => import('./features/waiter-pdv/WaiterPdvPage.tsx')),
  'sale-delivery': page(() => import('./features/delivery/DeliveryPanelPage.tsx')),
  'sale-delivery-new': page(() => import('./features/delivery/PhoneOrderPage.tsx')),
  'sale-delivery-settlement': page(() => import('./features/delivery/SettlementPage.tsx')),
  'driver-available': page(() => import('./features/driver/DriverPage.tsx')),
  'driver-awaiting-collection': page(() => import('./features/driver/DriverPage.tsx')),
  'driver-in-transit': page(() => import('./features/driver/DriverPage.tsx')),
  'driver-delivered': page(() => import('./features/driver/DriverPage.tsx')),
};

setPagePreloader((routeName, withData) => PAGES[routeName]?.preload(withData));
