import { NamedListPage } from './NamedListPage.tsx';
import { CATEGORY } from './namedConfig.ts';

/** /dashboard/product-category */
export default function ProductCategoryListPage() {
  return <NamedListPage config={CATEGORY} />;
}
