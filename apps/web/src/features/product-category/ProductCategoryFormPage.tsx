import { NamedFormPage } from './NamedFormPage.tsx';
import { CATEGORY } from './namedConfig.ts';

/** /dashboard/product-category/new and /edit/{id} */
export default function ProductCategoryFormPage() {
  return <NamedFormPage config={CATEGORY} />;
}
