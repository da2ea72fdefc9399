import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes } from '../../lib/namedCatalog.ts';
import { categoryService } from './service.ts';

export const productCategoryRoutes = (ctx: AppContext) =>
  namedCatalogRoutes(ctx, 'product-category', categoryService);
