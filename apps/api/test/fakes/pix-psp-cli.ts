/**
 * Runs the fake PSP (API Pix v2) on fixed ports for the browser tests and a demo:
 * PORT=7000 PAY_PORT=7001 CERT_DIR=.tmp/pix tsx pix-psp-cli.ts
 * Makes a local CA and certificates (node-forge) and writes them to CERT_DIR: ca.pem (the API's
 * PIX_CA_FILE), client.pem and client-key.pem (the shop's certificate, uploaded on Configurações >
 * Conta Pix). The customer's bank app: http://127.0.0.1:PAY_PORT/pagar.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makePixCerts, type PixCerts, startFakePsp } from './pix-psp.ts';

const dir = resolve(process.env.CERT_DIR ?? '.tmp/pix');
mkdirSync(dir, { recursive: true });
// The same certificates across restarts of a demo (a shop keeps the one it uploaded).
const saved = join(dir, 'certs.json');
const certs: PixCerts = existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : makePixCerts();
writeFileSync(saved, JSON.stringify(certs));
writeFileSync(join(dir, 'ca.pem'), certs.caPem);
writeFileSync(join(dir, 'client.pem'), certs.clientCertPem);
writeFileSync(join(dir, 'client-key.pem'), certs.clientKeyPem);
writeFileSync(join(dir, 'client.pfx'), Buffer.from(certs.clientPfxBase64, 'base64'));

const fake = await startFakePsp({
  certs,
  port: Number(process.env.PORT ?? 7000),
  payPort: Number(process.env.PAY_PORT ?? 7001),
  clientId: process.env.PIX_CLIENT_ID ?? 'Client_Id_demo',
  clientSecret: process.env.PIX_CLIENT_SECRET ?? 'Client_Secret_demo',
});
console.log(`fake PSP (API Pix v2) at ${fake.apiUrl}, token ${fake.tokenUrl}, bank app ${fake.payUrl}/pagar`);
const stop = () => fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
