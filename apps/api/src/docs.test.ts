import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

describe('OpenAPI document', () => {
  it('declares a response schema for the success status of every operation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, Operation>>;
    const missing: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations++;
        const success = Object.entries(operation.responses ?? {}).filter(([status]) =>
          /^2\d\d$/.test(status),
        );
        const described = success.some(([, answer]) =>
          Object.values(answer.content ?? {}).some((media) => media.schema !== undefined),
        );
        if (!described) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations).toBeGreaterThan(80);
    expect(missing).toEqual([]);
    // Downloads are documented under their own content type, not as JSON.
    const csv = paths['/v1/sale/client/{clientId}/export'].get.responses?.['200'].content;
    expect(Object.keys(csv ?? {})).toEqual(['text/csv']);
  });
});
