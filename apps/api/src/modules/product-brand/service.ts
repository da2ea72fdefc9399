import { BRAND_NAME_TAKEN, brandInUseMessage } from '@balcao/core/product';
import { namedCatalogService } from '../product-category/namedCatalog.ts';
import type { productCategories } from '../product-category/schema.ts';
import { productBrands } from './schema.ts';

export const brandService = namedCatalogService({
  // Same columns as categories: the shared service reads it through the category table's type.
  table: productBrands as unknown as typeof productCategories,
  productColumn: 'brandId',
  uniqueConstraint: 'product_brands_client_name_uq',
  nameTaken: BRAND_NAME_TAKEN,
  notFoundMessage: 'Marca não encontrada',
  inUse: brandInUseMessage,
});
