import { CATEGORY_NAME_TAKEN, categoryInUseMessage } from '@balcao/core/product';
import { type NamedTable, namedCatalogService } from '../../lib/namedCatalog.ts';
import { productCategories } from './schema.ts';

export const categoryService = namedCatalogService({
  table: productCategories as unknown as NamedTable,
  uniqueConstraint: 'product_categories_client_name_uq',
  nameTaken: CATEGORY_NAME_TAKEN,
  notFoundMessage: 'Categoria não encontrada',
  inUse: categoryInUseMessage,
});
