import { z } from 'zod';

import { REQUIRED } from './messages.ts';

export { REQUIRED };

/**
 * zod speaks Portuguese: a missing field says the spec's generic "O campo é obrigatório",
 * anything else falls back to zod's pt locale. Every schema imports z from here.
 */
z.config({
  ...z.locales.pt(),
  // In a browser the app's Content-Security-Policy forbids eval: zod's compiled parsers (new Function)
  // would be refused and reported as violations. The API keeps them (faster validation).
  jitless: 'document' in globalThis,
  customError: (issue) =>
    issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)
      ? REQUIRED
      : undefined,
});

export { z };
