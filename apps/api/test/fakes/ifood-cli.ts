import { startFakeIfood } from './ifood.ts';

/** The fake iFood as a process (demo, e2e): PORT, CLIENT_ID, CLIENT_SECRET, MERCHANT_ID. */
const fake = await startFakeIfood({
  port: Number(process.env.PORT ?? 9000),
  clientId: process.env.CLIENT_ID,
  clientSecret: process.env.CLIENT_SECRET,
  merchantId: process.env.MERCHANT_ID,
});
console.log(`fake iFood on ${fake.url} (place an order: ${fake.url}/__fake/place)`);
