import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../../components/FeedbackSnackbar.tsx';
import { useSession } from '../../auth/index.ts';
import { StockHistory } from './StockHistory.tsx';

/** What a stock page starts from: the shop, whether the user may write (WRITE.stock), its snackbar. */
export function useStockPage() {
  const { user } = useSession();
  const feedback = useFeedback();
  return { clientId: user?.client.id, canWrite: can(user?.userType.id, WRITE.stock), ...feedback };
}

/**
 * The frame of a stock page (entry, exit, fractionate): the title, a notice for who may only look
 * (back-office users outside WRITE.stock), the page's form and sections, the movement history
 * starting on `historyType`, and the page's snackbar (`page`: useStockPage).
 */
export function StockPage({
  page: { clientId, canWrite, state, close },
  title,
  historyType,
  children,
}: {
  page: ReturnType<typeof useStockPage>;
  title: string;
  historyType: string;
  children: ReactNode;
}) {
  return (
    <Box sx={{ maxWidth: 1200 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {title}
      </Typography>
      {!canWrite && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Você pode consultar o estoque, mas não registrar movimentações.
        </Alert>
      )}
      <Stack sx={{ gap: 3 }}>
        {children}
        <StockHistory clientId={clientId} defaultType={historyType} />
      </Stack>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
