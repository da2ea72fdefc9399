import { CAMPAIGN_CATEGORY, NamedListPage } from '../product-category/index.ts';

/** /dashboard/campaign-category */
export default function CampaignCategoryListPage() {
  return <NamedListPage config={CAMPAIGN_CATEGORY} />;
}
