import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import type { SxProps, Theme } from '@mui/material/styles';
import TableCell from '@mui/material/TableCell';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import type { Feedback } from './FeedbackSnackbar.tsx';

/** Shows the message a form hands over when it returns to the list ("Cliente cadastrado com sucesso"). */
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

/** A row's actions: edit (or view, for who cannot write) and, when allowed, delete. */
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
    <>
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
    </>
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
