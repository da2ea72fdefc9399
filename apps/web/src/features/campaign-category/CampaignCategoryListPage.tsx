import { NamedListPage } from '../product-category/NamedListPage.tsx';
import { CAMPAIGN_CATEGORY } from '../product-category/namedConfig.ts';

/** /dashboard/campaign-category */
export default function CampaignCategoryListPage() {
  return <NamedListPage config={CAMPAIGN_CATEGORY} />;
}
