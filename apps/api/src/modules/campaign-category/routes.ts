import { BACKOFFICE, WRITE } from '@balcao/core/routes';
import type { AppContext } from '../../context.ts';
import { namedCatalogRoutes, type UsageCount } from '../../lib/namedCatalog.ts';
import { campaignCategoryService } from './service.ts';

/** `usage`: how many campaigns are in a category, handed over by the campaign module at wiring. */
export const campaignCategoryRoutes = (ctx: AppContext, usage: UsageCount) =>
  namedCatalogRoutes(ctx, 'campaign-category', campaignCategoryService, usage, {
    read: BACKOFFICE,
    write: WRITE.campaigns,
  });
