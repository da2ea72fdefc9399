import { formatCents } from '@balcao/core/money';
import { type PayableDue, payableDueLines } from '@balcao/core/payable';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link } from 'react-router';

/** How many bills the bell's dot stands for: overdue and due today. */
export const payableDueCount = (due: PayableDue | undefined) =>
  due ? due.overdue.count + due.dueToday.count : 0;

/**
 * The bell's standing lines (issue 34): open payables overdue and due today, with a way to the list.
 * They stay while the bills do ("Limpar" clears the socket's notices, not these).
 */
export function PayableDueAlerts({ due, onOpen }: { due: PayableDue | undefined; onOpen: () => void }) {
  if (!due) return null;
  const lines = payableDueLines(due, formatCents);
  if (lines.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="bell-payables">
      {lines.map((line, i) => (
        <Alert key={line} severity={i === 0 && due.overdue.count > 0 ? 'error' : 'warning'}>
          {line}
        </Alert>
      ))}
      <Button
        component={Link}
        to={due.overdue.count > 0 ? '/dashboard/payable?status=overdue' : '/dashboard/payable?status=open'}
        size="small"
        onClick={onOpen}
        sx={{ alignSelf: 'flex-start' }}
      >
        Ver contas a pagar
      </Button>
    </Stack>
  );
}
