import { BACKOFFICE, WRITE } from '../routes.ts';
import { namedCatalogEndpoints } from './namedCatalog.ts';

/** /v1/product-brand: read by the back office, written by the catalog roles. */
export const productBrandApi = namedCatalogEndpoints(
  'product-brand',
  { one: 'brand', many: 'brands' },
  'products',
  {
    read: BACKOFFICE,
    write: WRITE.catalog,
  },
);
