import { NamedFormPage } from '../product-category/NamedFormPage.tsx';
import { CAMPAIGN_CATEGORY } from '../product-category/namedConfig.ts';

/** /dashboard/campaign-category/new and /edit/{id} */
export default function CampaignCategoryFormPage() {
  return <NamedFormPage config={CAMPAIGN_CATEGORY} />;
}
