import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes } from '../../lib/namedCatalog.ts';
import { brandService } from './service.ts';

export const productBrandRoutes = (ctx: AppContext) => namedCatalogRoutes(ctx, 'product-brand', brandService);
