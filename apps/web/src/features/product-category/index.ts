/** What the product-category feature offers the other features (the structure check allows no other way in). */

export { useNamedOptions } from './api.ts';
export { NamedFormPage } from './NamedFormPage.tsx';
export { NamedListPage } from './NamedListPage.tsx';
export { BRAND, CAMPAIGN_CATEGORY } from './namedConfig.ts';
