/**
 * Runs the fake SEFAZ (apps/api/test/fakes/sefaz.ts) for the browser tests and `npm start` with the
 * "local" fiscal environment:
 *   PORT=6000 CONTROL_PORT=6001 CA_OUT=/tmp/sefaz-ca.pem tsx sefaz-cli.ts
 * The HTTPS services demand a client certificate from its test CA, whose PEM is written to CA_OUT
 * (the API's SEFAZ_CA_FILE). A plain HTTP control port answers GET /ready, GET /down?cStat=108|109|off
 * (SEFAZ declared down, for EPEC in São Paulo), GET /epec-status?cStat=107|108|109 (SEFAZ-SP's EPEC
 * service in operation or not) and GET /a1?cnpj=&password=
 * (a fresh e-CNPJ A1 of that CNPJ from the test CA, as base64 .pfx: the test's "certificate file").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { startFakeSefaz } from './sefaz.ts';
import { makeA1 } from './sefazCerts.ts';

const port = Number(process.env.PORT ?? 6000);
const controlPort = Number(process.env.CONTROL_PORT ?? port + 1);
const caOut = process.env.CA_OUT ?? '.tmp/sefaz-ca.pem';

const fake = await startFakeSefaz({ port });
mkdirSync(dirname(caOut), { recursive: true });
writeFileSync(caOut, fake.caPem);

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/ready') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ url: fake.url, notes: fake.notes.size, calls: fake.calls }));
  }
  if (url.pathname === '/a1') {
    const a1 = makeA1(fake.ca, {
      cnpj: url.searchParams.get('cnpj') ?? '',
      name: url.searchParams.get('name') ?? 'LOJA DEMO LTDA',
      password: url.searchParams.get('password') ?? 'demo1234',
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ pfxBase64: a1.pfxBase64 }));
  }
  // SEFAZ declares itself down (108/109) or back up: GET /down?cStat=108 | /down?cStat=off.
  if (url.pathname === '/down') {
    const cStat = url.searchParams.get('cStat');
    fake.declaredDown = cStat === '108' || cStat === '109' ? cStat : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ declaredDown: fake.declaredDown }));
  }
  // SEFAZ-SP's EPEC service on (107) or not (108/109): GET /epec-status?cStat=108.
  if (url.pathname === '/epec-status') {
    const cStat = url.searchParams.get('cStat') ?? '107';
    fake.epecStatus =
      cStat === '109'
        ? ['109', 'Serviço Paralisado sem Previsão']
        : cStat === '108'
          ? ['108', 'Serviço Paralisado Momentaneamente (curto prazo)']
          : ['107', 'Serviço em Operação'];
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ epecStatus: fake.epecStatus[0] }));
  }
  res.writeHead(404);
  res.end();
});
control.listen(controlPort, '127.0.0.1');
console.log(`fake SEFAZ listening on ${fake.url} (control http://127.0.0.1:${controlPort})`);
const stop = () => fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
