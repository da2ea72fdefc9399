import { z } from '@balcao/core/zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkedSerializerCompiler } from './responseCheck.ts';

const route = {
  schema: z.object({ id: z.number(), at: z.date() }),
  method: 'GET',
  url: '/v1/thing',
  httpStatus: '200',
};

afterEach(() => vi.restoreAllMocks());

describe('checkedSerializerCompiler', () => {
  it('serializes an answer its schema describes whole (dates as ISO text)', () => {
    const serialize = checkedSerializerCompiler(route);
    const at = new Date('2025-03-10T12:00:00.000Z');
    expect(serialize({ id: 1, at })).toBe('{"id":1,"at":"2025-03-10T12:00:00.000Z"}');
  });

  it('throws when the schema would strip a field', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const serialize = checkedSerializerCompiler(route);
    expect(() => serialize({ id: 1, at: new Date(), extra: 'x' })).toThrow(
      'GET /v1/thing: the response schema changed the answer (extra: "x" became undefined)',
    );
  });
});
