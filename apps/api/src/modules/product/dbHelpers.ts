import { STALE_MESSAGE } from '@balcao/core/product';
import { conflict } from '../../errors.ts';

/** 409 for an edit made on a stale copy (its `updatedAt` is not the row's any more). */
export const staleEdit = () => conflict(STALE_MESSAGE);

/** numeric columns come back as numbers in 'number' mode; guard against strings from raw SQL. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
