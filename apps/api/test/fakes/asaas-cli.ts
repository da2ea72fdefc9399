/**
 * Runs the fake Asaas on a fixed port for browser tests:
 * PORT=4740 API_KEY=... WEBHOOK_URL=http://localhost:3140/v1/billing/webhook/asaas WEBHOOK_TOKEN=... tsx asaas-cli.ts
 * `POST /__test/pay-latest` plays Asaas receiving the newest charge (PAYMENT_RECEIVED to WEBHOOK_URL).
 */
import { startFakeAsaas } from './asaas.ts';

const fake = await startFakeAsaas(process.env.API_KEY ?? '$aact_fake_key', Number(process.env.PORT ?? 4740), {
  url: process.env.WEBHOOK_URL ?? 'http://localhost:3000/v1/billing/webhook/asaas',
  token: process.env.WEBHOOK_TOKEN ?? '',
});
console.log(`fake Asaas listening on ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
