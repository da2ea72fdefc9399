import { CAMPAIGN_CATEGORY, NamedFormPage } from '../product-category/index.ts';

/** /dashboard/campaign-category/new and /edit/{id} */
export default function CampaignCategoryFormPage() {
  return <NamedFormPage config={CAMPAIGN_CATEGORY} />;
}
