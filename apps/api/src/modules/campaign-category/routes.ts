import { campaignCategoryApi } from '@balcao/core/endpoints/campaign-category';
import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes, type UsageCount } from '../../lib/namedCatalog.ts';
import { campaignCategoryService } from './service.ts';

/** `usage`: how many campaigns are in a category, handed over by the campaign module at wiring. */
export const campaignCategoryRoutes = (ctx: AppContext, usage: UsageCount) =>
  namedCatalogRoutes(ctx, campaignCategoryApi, campaignCategoryService, usage);
