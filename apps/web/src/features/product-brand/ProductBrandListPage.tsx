import { BRAND, NamedListPage } from '../product-category/index.ts';

/** /dashboard/product-brand */
export default function ProductBrandListPage() {
  return <NamedListPage config={BRAND} />;
}
