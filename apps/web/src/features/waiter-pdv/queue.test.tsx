import { COMANDA_MESSAGES } from '@balcao/core/comanda';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { isRetryable } from './queue.ts';

describe('waiter outbox', () => {
  it('keeps an operation while the server could not answer it, drops one the server refused', () => {
    // No connection, a request still in flight elsewhere, rate limit, server trouble: try again later.
    for (const status of [0, 409, 429, 500, 502, 503])
      expect(isRetryable(new ApiError(status, 'x'))).toBe(true);
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
    // Refused for good, a closed tab included.
    for (const status of [400, 403, 404, 422]) expect(isRetryable(new ApiError(status, 'x'))).toBe(false);
    // A closed tab is told by its code, whatever the message says.
    expect(isRetryable(new ApiError(409, COMANDA_MESSAGES.notActive, [], 'tab_closed'))).toBe(false);
    expect(isRetryable(new ApiError(409, 'Outro texto', [], 'tab_closed'))).toBe(false);
  });
});
