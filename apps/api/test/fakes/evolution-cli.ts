/**
 * Runs the fake Evolution API on a fixed port (browser tests point EVOLUTION_API_URL at it):
 * PORT=4690 EVOLUTION_API_KEY=... REGISTERED=5511...,5511... tsx evolution-cli.ts
 * Webhooks go over HTTP to the URL the API gave at create; POST /__fake/scan/{instance} opens it.
 */
import { startFakeEvolution } from './evolution.ts';

const fake = await startFakeEvolution({
  port: Number(process.env.PORT ?? 4690),
  apiKey: process.env.EVOLUTION_API_KEY ?? 'fake-evolution-key',
  instances: [],
  registered: (process.env.REGISTERED ?? '').split(',').filter(Boolean),
  // Evolution's create answers after at least 5 s; shorter here, the same shape (created before it answers).
  createDelayMs: Number(process.env.CREATE_DELAY_MS ?? 1500),
});
console.log(`fake Evolution API listening on ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
