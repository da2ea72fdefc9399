import { BACKOFFICE, WRITE } from '../routes.ts';
import { namedCatalogEndpoints } from './namedCatalog.ts';

/** /v1/product-category: read by the back office, written by the catalog roles. */
export const productCategoryApi = namedCatalogEndpoints(
  'product-category',
  { one: 'category', many: 'categories' },
  'products',
  {
    read: BACKOFFICE,
    write: WRITE.catalog,
  },
);
