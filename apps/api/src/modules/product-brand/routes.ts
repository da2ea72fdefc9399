import { productBrandApi } from '@balcao/core/endpoints/product-brand';
import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes, type UsageCount } from '../../lib/namedCatalog.ts';
import { brandService } from './service.ts';

/** `usage`: how many products carry a brand, handed over by the product module at wiring. */
export const productBrandRoutes = (ctx: AppContext, usage: UsageCount) =>
  namedCatalogRoutes(ctx, productBrandApi, brandService, usage);
