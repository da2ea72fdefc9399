import { CAMPAIGN_CATEGORY_NAME_TAKEN, campaignCategoryInUseMessage } from '@balcao/core/campaign';
import { type NamedTable, namedCatalogService } from '../../lib/namedCatalog.ts';
import { campaignCategories } from './schema.ts';

/** Campaign categories: the named-catalog record; `productCount` counts the campaigns that use one. */
export const campaignCategoryService = namedCatalogService({
  table: campaignCategories as unknown as NamedTable,
  uniqueConstraint: 'campaign_categories_client_name_uq',
  nameTaken: CAMPAIGN_CATEGORY_NAME_TAKEN,
  notFoundMessage: 'Categoria de campanha não encontrada',
  inUse: campaignCategoryInUseMessage,
});
