import { readdirSync } from 'node:fs';
import type { EndpointDef } from '@balcao/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helper.ts';

const ENDPOINTS = new URL('../../../packages/core/src/endpoints/', import.meta.url);

let t: TestApp;
/** Every declaration of core's endpoint files (issue 29: endpoints declared once). */
let declarations: EndpointDef[] = [];
beforeAll(async () => {
  for (const file of readdirSync(ENDPOINTS).filter((name) => name.endsWith('.ts'))) {
    const exports = (await import(new URL(file, ENDPOINTS).href)) as Record<
      string,
      Record<string, EndpointDef>
    >;
    declarations.push(...Object.values(exports).flatMap((group) => Object.values(group)));
  }
  declarations = declarations.filter((d) => typeof d?.path === 'string');
  t = await createTestApp();
});
afterAll(() => t.close());

describe('one contract between the web and the API', () => {
  it('registers every /v1 route from its declaration in core (no route written by hand)', () => {
    const byHand = t.app.routes
      .filter((r) => r.url.startsWith('/v1/') && !r.url.startsWith('/v1/docs') && !r.declared)
      .map((r) => `${r.method} ${r.url}`);
    expect(byHand).toEqual([]);
  });

  it('registers every declaration, with the access it declares', () => {
    const registered = new Map(
      t.app.routes.filter((r) => r.declared).map((r) => [`${r.method} ${r.url}`, r.access]),
    );
    // A declaration may be exported twice (auth's zod-free routes and the server's refinement of them).
    const keys = new Set(declarations.map((d) => `${d.method} /v1${d.path}`));
    expect(keys.size).toBe(
      registered.size - [...registered.keys()].filter((k) => k.startsWith('HEAD ')).length,
    );
    for (const d of declarations) {
      expect(registered.get(`${d.method} /v1${d.path}`), `${d.method} ${d.path}`).toEqual(d.access);
    }
  });
});
