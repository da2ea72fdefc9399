import { BRAND, NamedFormPage } from '../product-category/index.ts';

/** /dashboard/product-brand/new and /edit/{id} */
export default function ProductBrandFormPage() {
  return <NamedFormPage config={BRAND} />;
}
