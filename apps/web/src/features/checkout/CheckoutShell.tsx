import { formatCents } from '@balcao/core/money';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * The shell the checkout's pages share (the PDV, the budget PDV, the budget conversion, the phone
 * order): the steps' bar, the page's grid (the step, the totals beside it on a large screen) and the
 * totals' panel with its lines.
 */

/**
 * The steps' bar: each step opens with a click (`onStep`) and the ones before `active` show as done.
 * `lastIsDone`: the last step is the finished sale (the PDV's "Concluído"): done only once reached and
 * not to be clicked before.
 */
export function CheckoutStepper({
  steps,
  active,
  onStep,
  lastIsDone = false,
}: {
  steps: readonly string[];
  active: number;
  onStep: (index: number) => void;
  lastIsDone?: boolean;
}) {
  const last = steps.length - 1;
  const reachedEnd = lastIsDone && active === last;
  return (
    <Stepper nonLinear alternativeLabel activeStep={active} sx={{ mb: 3 }}>
      {steps.map((label, index) => (
        <Step key={label} completed={reachedEnd || index < active}>
          <StepButton
            onClick={() => (lastIsDone && index === last ? undefined : onStep(index))}
            disabled={lastIsDone && index === last && !reachedEnd}
          >
            {label}
          </StepButton>
        </Step>
      ))}
    </Stepper>
  );
}

/** The page's grid: the step (`children`' first) and the totals beside it (`side` px wide) on a large screen. */
export function CheckoutGrid({ side = 320, children }: { side?: number; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: `minmax(0, 1fr) ${side}px` },
      }}
    >
      {children}
    </Box>
  );
}

/** The totals' panel ("Totais"), kept in sight while the page scrolls when `sticky`. */
export function TotalsPanel({
  sticky = false,
  spacing = 0.75,
  children,
}: {
  sticky?: boolean;
  spacing?: number;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, alignSelf: 'start', ...(sticky ? { position: { lg: 'sticky' }, top: { lg: 80 } } : {}) }}
      aria-label="Totais"
    >
      <Stack spacing={spacing}>{children}</Stack>
    </Paper>
  );
}

/** A line of the totals: its label, then its value (`testId` names the value for the tests). */
export function TotalLine({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography data-testid={testId}>{value}</Typography>
    </Stack>
  );
}

/** The total to pay, large (`testId` names it for the tests). */
export function GrandTotal({ cents, testId }: { cents: number; testId: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
      <Typography variant="h6">Total</Typography>
      <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid={testId}>
        {formatCents(cents)}
      </Typography>
    </Stack>
  );
}
