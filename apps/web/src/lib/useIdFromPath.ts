import { useLocation } from 'react-router';

/**
 * The record id of an edit or detail route, its last path segment ("/dashboard/product/edit/12" -> 12):
 * undefined when the path is not under `base` (the /new page), NaN when that segment is not a positive
 * integer (the page shows its "não encontrado").
 */
export function useIdFromPath(base: string): number | undefined {
  const { pathname } = useLocation();
  if (!pathname.startsWith(base)) return undefined;
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  return /^[1-9]\d*$/.test(last) ? Number(last) : Number.NaN;
}
