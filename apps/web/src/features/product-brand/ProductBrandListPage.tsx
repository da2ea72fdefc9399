import { NamedListPage } from '../product-category/NamedListPage.tsx';
import { BRAND } from '../product-category/namedConfig.ts';

/** /dashboard/product-brand */
export default function ProductBrandListPage() {
  return <NamedListPage config={BRAND} />;
}
