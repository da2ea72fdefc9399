import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { UseQueryResult } from '@tanstack/react-query';
import { Children, type ComponentProps, isValidElement, type ReactNode, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import type { Feedback } from './FeedbackSnackbar.tsx';
import { ListPagination } from './ListPagination.tsx';
import { LoadError } from './LoadError.tsx';
import { Loading } from './Loading.tsx';

// The title row lives in its own module: pages that are not lists (the comanda board) use it
// without the table's code.
export { ListHeader } from './ListHeader.tsx';

/**
 * What a list shows for its query: a spinner while it loads, the error with a retry (`what` failed),
 * `empty` when the answer has no row, else `children` with the answer.
 */
export function ListQuery<D extends { items: readonly unknown[] }>({
  query,
  what,
  empty,
  children,
}: {
  query: UseQueryResult<D>;
  what?: string;
  empty: ReactNode;
  children: (data: D) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={() => query.refetch()} />;
  if (query.data.items.length === 0) return empty;
  return children(query.data);
}

/** A header cell of ListTable: its label, left aligned, or `alignRight(label)` (amounts, quantities). */
type HeadCell = string | { label: string; align: 'right' };
export const alignRight = (label: string): HeadCell => ({ label, align: 'right' });

const isCellList = (head: unknown): head is readonly HeadCell[] => Array.isArray(head);

function headCell(cell: HeadCell, index: number) {
  const { label, align } = typeof cell === 'string' ? { label: cell, align: undefined } : cell;
  // A header row never reorders, and labels may repeat (''): the position is the key.
  return (
    <TableCell key={index} align={align}>
      {label}
    </TableCell>
  );
}

/**
 * The labels of a header row given as cells (`<TableCell>Preço</TableCell>`, `<SortHeader label=...>`):
 * a cell's `label` prop or its text; '' for a cell without one (an image or a hidden label).
 */
function labelsOf(head: ReactNode): string[] {
  const cells =
    isValidElement<{ children?: ReactNode }>(head) && !('label' in (head.props as object))
      ? head.props.children
      : head;
  return Children.toArray(cells).map((cell) => {
    if (!isValidElement<{ label?: unknown; children?: unknown }>(cell)) return '';
    const { label, children } = cell.props;
    if (typeof label === 'string') return label;
    return typeof children === 'string' ? children : '';
  });
}

/**
 * Below the small breakpoint (phones) a table's rows become cards: no header row, each cell on its own
 * line with its column's label before it (from the header), actions included, nothing clipped or
 * scrolled sideways. The rows and cells stay the same elements (tests and screen readers find them).
 */
function phoneCards(labels: readonly string[]): SxProps<Theme> {
  return (theme: Theme) => {
    // A row's cells, `td` or the `th` that names the row: counted by position (nth-child), so a row
    // starting with a `th` labels its figures by their own columns (issue 30).
    const cell = '& > table > tbody > tr > :is(td, th)';
    const rules: Record<string, Record<string, string | number>> = {
      '& > table, & > table > tbody': { display: 'block' },
      '& > table > thead': { display: 'none' },
      '& > table > tbody > tr': {
        display: 'block',
        border: `1px solid ${theme.palette.divider}`,
        borderRadius: `${theme.shape.borderRadius}px`,
        backgroundColor: theme.palette.background.paper,
        marginBottom: theme.spacing(1.5),
        padding: theme.spacing(1, 0.5),
      },
      [cell]: {
        display: 'flex',
        // MUI reverses right-aligned cells (for sort labels): the label stays first here.
        flexDirection: 'row',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: theme.spacing(0.5, 2),
        width: 'auto',
        minHeight: 36,
        borderBottom: 0,
        padding: theme.spacing(0.5, 1.5),
        textAlign: 'right',
      },
      // A cell with nothing in it (a spacer) takes no line.
      [`${cell}:empty`]: { display: 'none' },
    };
    labels.forEach((label, index) => {
      if (!label) return;
      rules[`${cell}:nth-child(${index + 1})::before`] = {
        content: JSON.stringify(label),
        color: theme.palette.text.secondary,
        fontWeight: 500,
        textAlign: 'left',
        marginRight: 'auto',
      };
    });
    return { [theme.breakpoints.down('sm')]: { overflowX: 'visible', ...rules } };
  };
}

/**
 * The one way to draw a table of rows (a list, a sale's items, an import's errors): small, named by
 * `label`, one header row (`head`: its labels, or its cells where they sort or hold more), the rows, and for a paged list the pagination under it
 * (`useListParams`' `pagination(shown, sizes)`). On a phone the rows are cards (`phoneCards`).
 */
export function ListTable({
  label,
  head,
  pagination,
  stickyHeader,
  maxHeight,
  sx,
  children,
}: {
  label: string;
  head: readonly HeadCell[] | ReactNode;
  pagination?: ComponentProps<typeof ListPagination>;
  stickyHeader?: boolean;
  /**
   * A height past which the rows scroll inside the table (a dialog's preview): the scrolling box is
   * then a named region a keyboard can reach and scroll (axe's scrollable-region-focusable).
   */
  maxHeight?: number;
  /** The table container's style (a height that scrolls, a border). */
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  const labels = isCellList(head)
    ? head.map((cell) => (typeof cell === 'string' ? cell : cell.label))
    : labelsOf(head);
  return (
    <>
      <TableContainer
        sx={[
          phoneCards(labels),
          maxHeight ? { maxHeight, overflowY: 'auto' } : {},
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
        {...(maxHeight ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      >
        <Table size="small" stickyHeader={stickyHeader} aria-label={label}>
          <TableHead>
            <TableRow>{isCellList(head) ? head.map(headCell) : head}</TableRow>
          </TableHead>
          <TableBody>{children}</TableBody>
        </Table>
      </TableContainer>
      {pagination && <ListPagination {...pagination} />}
    </>
  );
}

/**
 * A list's filters: in place on a wide screen; on a phone behind a "Filtros" button (with how many are
 * set), so the rows, not the filters, fill the first screen.
 */
export function ListFilters({ active = 0, children }: { active?: number; children: ReactNode }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  if (!phone) return <>{children}</>;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FilterListIcon />}
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        sx={{ alignSelf: 'flex-start', justifySelf: 'start' }}
      >
        {active > 0 ? `Filtros (${active})` : 'Filtros'}
      </Button>
      <Collapse in={open} unmountOnExit>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {children}
        </Stack>
      </Collapse>
    </>
  );
}

/**
 * Shows the message a page hands over in the navigation state (`{ message }`): a form returning to its
 * list ("Cliente cadastrado com sucesso"), a create opening its edit page ("Produto criado com sucesso").
 * The state is then cleared, so a reload does not show it again.
 */
export function useHandedOverMessage(show: (feedback: Feedback) => void) {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    const message = (location.state as { message?: string } | null)?.message;
    if (message) {
      show({ severity: 'success', title: message });
      navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    }
  }, [location, navigate, show]);
}

/**
 * A row's last cell, its actions: edit (or view, for who cannot write) and, when allowed, delete. A
 * click there stays out of a clickable row.
 */
export function RowActions({
  editTo,
  name,
  canEdit,
  onDelete,
}: {
  editTo: string;
  name: string;
  canEdit: boolean;
  /** Absent: no delete button. */
  onDelete?: () => void;
}) {
  const verb = canEdit ? 'Editar' : 'Ver';
  return (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
      <Tooltip title={verb}>
        <IconButton component={RouterLink} to={editTo} aria-label={`${verb} ${name}`}>
          <EditIcon />
        </IconButton>
      </Tooltip>
      {onDelete && (
        <Tooltip title="Excluir">
          <IconButton aria-label={`Excluir ${name}`} onClick={onDelete}>
            <DeleteIcon />
          </IconButton>
        </Tooltip>
      )}
    </TableCell>
  );
}

/** A column header that sorts the list by `field`: ascending, then descending ("-field") on the next click. */
export function SortHeader({
  field,
  label,
  sort,
  onSort,
  align,
}: {
  field: string;
  label: string;
  /** The list's current sort ("name" or "-name"). */
  sort: string | undefined;
  onSort: (field: string) => void;
  align?: 'right';
}) {
  const direction = sort === field ? 'asc' : sort === `-${field}` ? 'desc' : false;
  return (
    <TableCell align={align} sortDirection={direction}>
      <TableSortLabel
        active={Boolean(direction)}
        direction={direction || 'asc'}
        onClick={() => onSort(field)}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** A list's search box ("Buscar" with a search icon); the text goes to useListParams' `setSearch`. */
export function SearchField({
  value,
  onChange,
  placeholder,
  sx,
}: {
  value: string;
  onChange: (text: string) => void;
  placeholder: string;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      label="Buscar"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      size="small"
      sx={sx}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * A list's "Status" filter on its `active` URL key: all, active or inactive records. `value` is the
 * key as read ('true' / true, 'false' / false, undefined); `onChange` gives what to write to the URL.
 */
export function ActiveFilter({
  value,
  onChange,
  feminine = false,
  sx,
}: {
  value: boolean | 'true' | 'false' | undefined;
  onChange: (active: 'true' | 'false' | undefined) => void;
  /** "Todas, Ativas, Inativas" (categorias, marcas). */
  feminine?: boolean;
  sx?: SxProps<Theme>;
}) {
  const [all, active, inactive] = feminine
    ? ['Todas', 'Ativas', 'Inativas']
    : ['Todos', 'Ativos', 'Inativos'];
  return (
    <TextField
      select
      label="Status"
      size="small"
      value={value === undefined ? 'all' : String(value)}
      onChange={(e) => onChange(e.target.value === 'all' ? undefined : (e.target.value as 'true' | 'false'))}
      sx={sx}
    >
      <MenuItem value="all">{all}</MenuItem>
      <MenuItem value="true">{active}</MenuItem>
      <MenuItem value="false">{inactive}</MenuItem>
    </TextField>
  );
}

/** An option of a SelectFilter: the value written to the URL and what the menu shows. */
export type FilterOption = { value: string | number; label: ReactNode };

/** The options of a fixed set of keys, each by its label (statuses, payment methods). */
export const labelledOptions = <K extends string>(
  keys: readonly K[],
  labels: Record<K, string>,
): FilterOption[] => keys.map((key) => ({ value: key, label: labels[key] }));

/** The options of records by id, each by its name (sellers, categories, drivers); none while they load. */
export const recordOptions = (records: readonly { id: number; name: string }[] | undefined): FilterOption[] =>
  (records ?? []).map((r) => ({ value: r.id, label: r.name }));

/**
 * A list's select filter: "Todos" (`allLabel`, "Todas" for a feminine noun) for none, then `options`;
 * `onChange` gets the chosen value as text, undefined for none. The other TextField props (label,
 * size, sx, slotProps) pass through.
 */
export function SelectFilter({
  value,
  options,
  onChange,
  allLabel = 'Todos',
  ...field
}: Omit<TextFieldProps, 'value' | 'onChange' | 'select' | 'children'> & {
  value: string | number | undefined;
  options: readonly FilterOption[];
  onChange: (value: string | undefined) => void;
  allLabel?: string;
}) {
  return (
    <TextField
      select
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : String(e.target.value))}
      {...field}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A record's status in a list row: "Ativo" in green or "Inativo" ("Ativa"/"Inativa" with `feminine`). */
export function ActiveChip({ active, feminine = false }: { active: boolean; feminine?: boolean }) {
  const label = feminine ? (active ? 'Ativa' : 'Inativa') : active ? 'Ativo' : 'Inativo';
  return <Chip size="small" label={label} color={active ? 'success' : 'default'} />;
}

/**
 * "Exportar CSV" ("Exportar XLSX" with `format`): runs `download` ("Exportando..." and disabled meanwhile) and tells `onError` a
 * failure. `disabled` while the shop is not known.
 */
export function ExportButton({
  download,
  onError,
  disabled,
  variant,
  format = 'CSV',
}: {
  download: () => Promise<unknown>;
  onError: (error: unknown) => void;
  disabled?: boolean;
  variant?: 'outlined';
  /** The file's format in the button's text. */
  format?: 'CSV' | 'XLSX';
}) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      await download();
    } catch (error) {
      onError(error);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button variant={variant} startIcon={<DownloadIcon />} onClick={run} disabled={disabled || exporting}>
      {exporting ? 'Exportando...' : `Exportar ${format}`}
    </Button>
  );
}
