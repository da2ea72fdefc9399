import { productCategoryApi } from '@balcao/core/endpoints/product-category';
import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes, type UsageCount } from '../../lib/namedCatalog.ts';
import { categoryService } from './service.ts';

/** `usage`: how many products are in a category, handed over by the product module at wiring. */
export const productCategoryRoutes = (ctx: AppContext, usage: UsageCount) =>
  namedCatalogRoutes(ctx, productCategoryApi, categoryService, usage);
