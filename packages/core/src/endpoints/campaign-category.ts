import { BACKOFFICE, WRITE } from '../routes.ts';
import { namedCatalogEndpoints } from './namedCatalog.ts';

/** /v1/campaign-category: read by the back office, written by the campaign roles. */
export const campaignCategoryApi = namedCatalogEndpoints(
  'campaign-category',
  { one: 'campaign category', many: 'campaign categories' },
  'campaigns',
  {
    read: BACKOFFICE,
    write: WRITE.campaigns,
  },
);
