import { describe, expect, it } from 'vitest';
import { booleanFilter, listQuerySchema, parseSort, toQueryString } from './list.ts';

describe('list query', () => {
  it('defaults page 1 and pageSize 20, coerces strings and caps pageSize at 100', () => {
    expect(listQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20, q: undefined });
    expect(listQuerySchema.parse({ page: '3', pageSize: '50', q: ' ana ' })).toMatchObject({
      page: 3,
      pageSize: 50,
      q: 'ana',
    });
    const r = listQuerySchema.safeParse({ pageSize: '101' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('Use no máximo 100 itens por página');
    expect(listQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(listQuerySchema.parse({ q: '   ' }).q).toBeUndefined();
  });

  it('parses sort with a leading minus as descending and rejects unknown fields', () => {
    const fallback = { field: 'name', direction: 'asc' } as const;
    expect(parseSort(undefined, ['name', 'createdAt'], fallback)).toEqual(fallback);
    expect(parseSort('-createdAt', ['name', 'createdAt'], fallback)).toEqual({
      field: 'createdAt',
      direction: 'desc',
    });
    expect(parseSort('password', ['name'], fallback)).toBeNull();
    expect(listQuerySchema.safeParse({ sort: 'name; drop table' }).success).toBe(false);
  });

  it('reads boolean filters and builds query strings without empty values', () => {
    expect(booleanFilter.parse('true')).toBe(true);
    expect(booleanFilter.parse('false')).toBe(false);
    expect(booleanFilter.parse(undefined)).toBeUndefined();
    expect(booleanFilter.safeParse('sim').success).toBe(false);
    expect(toQueryString({ page: 2, q: '', active: false, x: undefined })).toBe('?page=2&active=false');
  });
});
