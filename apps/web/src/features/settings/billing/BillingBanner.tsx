import { overdueBannerText } from '@balcao/core/billingText';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';
import { useSession } from '../../auth/index.ts';
import { useBillingStatus } from './api.ts';

/**
 * The overdue banner: administrators see it once an invoice is past its grace period, on every page
 * but the billing page itself (which says it in full). It never blocks anything.
 */
export function BillingBanner() {
  const { user } = useSession();
  const isAdmin = can(user?.userType.id, WRITE.billing);
  const status = useBillingStatus(isAdmin);
  const location = useLocation();
  const overdue = status.data?.overdue;
  if (!isAdmin || !overdue || location.pathname.startsWith('/dashboard/settings/billing')) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      data-testid="billing-overdue-banner"
      action={
        <Button color="inherit" size="small" component={RouterLink} to="/dashboard/settings/billing">
          Pagar
        </Button>
      }
    >
      {overdueBannerText(overdue.dueDate, overdue.amountCents)}
    </Alert>
  );
}
