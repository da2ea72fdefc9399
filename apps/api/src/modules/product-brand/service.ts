import { BRAND_NAME_TAKEN, brandInUseMessage } from '@balcao/core/product';
import { type NamedTable, namedCatalogService } from '../../lib/namedCatalog.ts';
import { productBrands } from './schema.ts';

export const brandService = namedCatalogService({
  table: productBrands as unknown as NamedTable,
  uniqueConstraint: 'product_brands_client_name_uq',
  nameTaken: BRAND_NAME_TAKEN,
  notFoundMessage: 'Marca não encontrada',
  inUse: brandInUseMessage,
});
