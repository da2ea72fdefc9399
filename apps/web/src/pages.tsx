import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Page components by route name (core's ROUTES). A route without an entry shows "Em construção".
 * Every page is lazy: each route downloads only its own code.
 */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  login: lazy(() => import('./features/auth/LoginPage.tsx')),
  logout: lazy(() => import('./features/auth/LogoutPage.tsx')),
  'create-account': lazy(() => import('./features/account/CreateAccountPage.tsx')),
  'not-have-permission': lazy(() => import('./pages/NotHavePermissionPage.tsx')),
  'not-found': lazy(() => import('./pages/NotFoundPage.tsx')),
  hello: lazy(() => import('./pages/HelloPage.tsx')),
  home: lazy(() => import('./features/home/HomePage.tsx')),
  coupon: lazy(() => import('./features/coupon/CouponListPage.tsx')),
  'coupon-new': lazy(() => import('./features/coupon/CouponFormPage.tsx')),
  'coupon-edit': lazy(() => import('./features/coupon/CouponFormPage.tsx')),
  customer: lazy(() => import('./features/customer/CustomerListPage.tsx')),
  'customer-new': lazy(() => import('./features/customer/CustomerFormPage.tsx')),
  'customer-edit': lazy(() => import('./features/customer/CustomerFormPage.tsx')),
  user: lazy(() => import('./features/user/UserListPage.tsx')),
  'user-new': lazy(() => import('./features/user/UserFormPage.tsx')),
  'user-edit': lazy(() => import('./features/user/UserFormPage.tsx')),
  product: lazy(() => import('./features/product/ProductListPage.tsx')),
  'product-new': lazy(() => import('./features/product/ProductFormPage.tsx')),
  'product-edit': lazy(() => import('./features/product/ProductFormPage.tsx')),
  'product-category': lazy(() => import('./features/product-category/ProductCategoryListPage.tsx')),
  'product-category-new': lazy(() => import('./features/product-category/ProductCategoryFormPage.tsx')),
  'product-category-edit': lazy(() => import('./features/product-category/ProductCategoryFormPage.tsx')),
  'product-brand': lazy(() => import('./features/product-brand/ProductBrandListPage.tsx')),
  'product-brand-new': lazy(() => import('./features/product-brand/ProductBrandFormPage.tsx')),
  'product-brand-edit': lazy(() => import('./features/product-brand/ProductBrandFormPage.tsx')),
  'stock-entry': lazy(() => import('./features/stock/StockEntryPage.tsx')),
  'stock-exit': lazy(() => import('./features/stock/StockExitPage.tsx')),
  'stock-fractionate': lazy(() => import('./features/stock/StockFractionatePage.tsx')),
  sale: lazy(() => import('./features/sale/SaleListPage.tsx')),
  'sale-pdv': lazy(() => import('./features/pdv/PdvPage.tsx')),
  'sale-pdv-close': lazy(() => import('./features/cash-register/CloseRegisterPage.tsx')),
  'sale-detail': lazy(() => import('./features/sale/SaleDetailPage.tsx')),
  'sale-create-simple': lazy(() => import('./features/sale/SimpleSalePage.tsx')),
  'settings-printer': lazy(() => import('./features/settings/printer/PrinterSettingsPage.tsx')),
  'settings-billing': lazy(() => import('./features/settings/billing/BillingPage.tsx')),
};
