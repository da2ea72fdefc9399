import { formatCents } from '@balcao/core/money';
import { changeLabel } from '@balcao/core/report';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

/** The column a table's previous-period figure goes under. */
export const PREVIOUS_HEAD = 'Período anterior';

/** A change as people read it, coloured as better or worse: "+12,5%", or "novo" when there was nothing before. */
export function Change({
  current,
  previous,
  lowerIsBetter = false,
}: {
  current: number;
  previous: number;
  lowerIsBetter?: boolean;
}) {
  const change = changeLabel(current, previous);
  if (change === null) return <>{current === 0 ? '-' : 'novo'}</>;
  const better = lowerIsBetter ? current < previous : current > previous;
  return (
    <Typography
      component="span"
      variant="inherit"
      color={current === previous ? 'text.secondary' : better ? 'success.main' : 'error'}
    >
      {change}
    </Typography>
  );
}

/**
 * A row's figure in the previous period and the change, in one right-aligned cell ("R$ 39,00 · -74,4%"):
 * the comparison every report gives (issue 34).
 */
export function PreviousCell({
  current,
  previous,
  format = formatCents,
}: {
  current: number;
  previous: number;
  format?: (value: number) => string;
}) {
  return (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
      {format(previous)}
      <Typography component="span" variant="caption" sx={{ ml: 0.5 }}>
        · <Change current={current} previous={previous} />
      </Typography>
    </TableCell>
  );
}

/** A table's total row: its label, blank cells up to the compared figure, the figure and the previous one. */
export function TotalRow({
  label,
  before,
  current,
  previous,
  after = 0,
  format = formatCents,
}: {
  label: string;
  /** Empty cells between the label and the figure. */
  before: number;
  current: number;
  previous: number;
  /** Empty cells between the figure and the previous one. */
  after?: number;
  format?: (value: number) => string;
}) {
  return (
    <TableRow sx={{ '& td': { fontWeight: 700 } }}>
      <TableCell>{label}</TableCell>
      {Array.from({ length: before }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed blank cells
        <TableCell key={`b${i}`} />
      ))}
      <TableCell align="right">{format(current)}</TableCell>
      {Array.from({ length: after }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed blank cells
        <TableCell key={`a${i}`} />
      ))}
      <PreviousCell current={current} previous={previous} format={format} />
    </TableRow>
  );
}
