import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A few real-looking CEPs the fake knows (ViaCEP's field names). */
export const FAKE_CEPS: Record<string, Record<string, string>> = {
  '01001000': {
    cep: '01001-000',
    logradouro: 'Praça da Sé',
    complemento: 'lado ímpar',
    bairro: 'Sé',
    localidade: 'São Paulo',
    uf: 'SP',
    ibge: '3550308',
    ddd: '11',
  },
  '30130010': {
    cep: '30130-010',
    logradouro: 'Praça Sete de Setembro',
    complemento: '',
    bairro: 'Centro',
    localidade: 'Belo Horizonte',
    uf: 'MG',
    ibge: '3106200',
    ddd: '31',
  },
  '80010010': {
    cep: '80010-010',
    logradouro: 'Praça Tiradentes',
    complemento: '',
    bairro: 'Centro',
    localidade: 'Curitiba',
    uf: 'PR',
    ibge: '4106902',
    ddd: '41',
  },
  '69900970': {
    cep: '69900-970',
    logradouro: '',
    complemento: '',
    bairro: '',
    localidade: 'Rio Branco',
    uf: 'AC',
    ibge: '1200401',
    ddd: '68',
  },
};

/** Not found answered the other way ViaCEP does it: `erro` as the string "true". */
export const FAKE_CEP_NOT_FOUND_AS_STRING = '99999999';

/** A CEP the fake fails to answer (503), as ViaCEP does when overloaded. */
export const FAKE_CEP_FAILING = '09999999';

export type FakeViaCep = { url: string; requests: string[]; close: () => Promise<void> };

/**
 * A local HTTP server following ViaCEP's contract (INTEGRATIONS.md): `GET /ws/{cep}/json/` ->
 * the address, 400 (HTML page, like ViaCEP) on a bad format, `{erro: true}` when the CEP is unknown.
 */
export async function startFakeViaCep(port = 0, host = '127.0.0.1'): Promise<FakeViaCep> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/ws\/([^/]+)\/json\/?$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      return;
    }
    const cep = decodeURIComponent(m[1]);
    if (!/^\d{8}$/.test(cep)) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h3>Http 400</h3><p>Verifique a sua URL</p>');
      return;
    }
    if (cep === FAKE_CEP_FAILING) {
      // ViaCEP overloaded: an HTML error page.
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503 Service Unavailable</h1>');
      return;
    }
    const body = FAKE_CEPS[cep] ?? (cep === FAKE_CEP_NOT_FOUND_AS_STRING ? { erro: 'true' } : { erro: true });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
