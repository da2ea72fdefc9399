import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Feedback } from './FeedbackSnackbar.tsx';

/**
 * A list's state in the URL (back/forward and shared links keep search, filters and page): `query`
 * parsed from it, `update` to change keys (an empty value removes the key; any change but the page
 * itself goes back to page 1), and the search box text, written to `q` 300 ms after the last key.
 * `parse` must be a stable (module-level) function.
 */
export function useListParams<Q extends { q?: string }>(parse: (params: URLSearchParams) => Q) {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parse(params), [params, parse]);
  const [search, setSearch] = useState(query.q ?? '');

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text restarts the timer
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((query.q ?? '') !== search.trim()) update({ q: search.trim() || undefined });
    }, 300);
    return () => clearTimeout(timer);
  }, [search]);

  return { query, update, search, setSearch };
}

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
