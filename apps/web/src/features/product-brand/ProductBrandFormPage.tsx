import { NamedFormPage } from '../product-category/NamedFormPage.tsx';
import { BRAND } from '../product-category/namedConfig.ts';

/** /dashboard/product-brand/new and /edit/{id} */
export default function ProductBrandFormPage() {
  return <NamedFormPage config={BRAND} />;
}
