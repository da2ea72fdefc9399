import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes } from '../product-category/namedRoutes.ts';
import { brandService } from './service.ts';

export const productBrandRoutes = (ctx: AppContext) => namedCatalogRoutes(ctx, 'product-brand', brandService);
