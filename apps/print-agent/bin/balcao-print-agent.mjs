#!/usr/bin/env node
// The print agent's command (`npx balcao-print-agent pair CODE` / `start`): runs the TypeScript source
// through tsx, as the API does, so the agent needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
