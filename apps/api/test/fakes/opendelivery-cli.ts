import { startFakeOpenDelivery } from './opendelivery.ts';

/** The fake Open Delivery app as a process (demo, e2e): PORT, CLIENT_ID, CLIENT_SECRET, MERCHANT_ID. */
const fake = await startFakeOpenDelivery({
  port: Number(process.env.PORT ?? 9050),
  clientId: process.env.CLIENT_ID,
  clientSecret: process.env.CLIENT_SECRET,
  merchantId: process.env.MERCHANT_ID,
});
console.log(`fake Open Delivery on ${fake.url} (place an order: ${fake.url}/__fake/place)`);
