import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { FeedbackSnackbar, type FeedbackState } from '../../../components/FeedbackSnackbar.tsx';
import { StockHistory } from './StockHistory.tsx';

/**
 * The frame of a stock page (entry, exit, fractionate): the title, a notice for who may only look
 * (back-office users outside WRITE.stock), the page's form and sections, the movement history
 * starting on `historyType`, and the page's snackbar.
 */
export function StockPage({
  title,
  canWrite,
  clientId,
  historyType,
  feedback,
  onCloseFeedback,
  children,
}: {
  title: string;
  canWrite: boolean;
  clientId: number | undefined;
  historyType: string;
  feedback: FeedbackState;
  onCloseFeedback: () => void;
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
      <FeedbackSnackbar state={feedback} onClose={onCloseFeedback} />
    </Box>
  );
}
