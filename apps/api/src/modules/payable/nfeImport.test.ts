import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import { asUser, expectStatus } from '../../../test/kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function send(token: string, xml: string | Buffer, query = '') {
  const body = multipart('nota.xml', 'text/xml', Buffer.isBuffer(xml) ? xml : Buffer.from(xml));
  return t.app.inject({
    method: 'POST',
    url: `/v1/payable/nfe${query}`,
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** A supplier's nfeProc (NF-e 4.00, model 55) with the parts the import reads; signature left out. */
function nfeProc(o: {
  cnpj: string;
  number: string;
  vNF: string;
  vLiq?: string;
  dups: [string, string, string][];
}) {
  const key = `35261112345678000195550010000${o.number.padStart(5, '0')}1123456780`.slice(0, 44);
  const cobr =
    o.dups.length > 0
      ? `<cobr><fat><nFat>${o.number}</nFat><vOrig>${o.vLiq ?? o.vNF}</vOrig><vDesc>0.00</vDesc><vLiq>${o.vLiq ?? o.vNF}</vLiq></fat>${o.dups
          .map(([n, d, v]) => `<dup><nDup>${n}</nDup><dVenc>${d}</dVenc><vDup>${v}</vDup></dup>`)
          .join('')}</cobr>`
      : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe${key}" versao="4.00">
<ide><cUF>35</cUF><natOp>VENDA</natOp><mod>55</mod><serie>1</serie><nNF>${o.number}</nNF><dhEmi>2026-11-20T10:15:00-03:00</dhEmi><tpNF>1</tpNF></ide>
<emit><CNPJ>${o.cnpj}</CNPJ><xNome>Distribuidora Paulista de Alimentos Ltda</xNome><xFant>DPA</xFant><enderEmit><xLgr>Rua A</xLgr><nro>10</nro><fone>1133334444</fone></enderEmit><IE>123456789012</IE><CRT>3</CRT></emit>
<det nItem="1"><prod><cProd>A1</cProd><cEAN>SEM GTIN</cEAN><xProd>Arroz 5 kg</xProd><qCom>10.0000</qCom><vUnCom>25.9000000000</vUnCom><vProd>259.00</vProd></prod></det>
<total><ICMSTot><vBC>0.00</vBC><vProd>${o.vNF}</vProd><vNF>${o.vNF}</vNF></ICMSTot></total>
${cobr}
</infNFe></NFe><protNFe versao="4.00"><infProt><chNFe>${key}</chNFe><cStat>100</cStat></infProt></protNFe></nfeProc>`;
}

describe("a supplier's NF-e XML as its bills", () => {
  it('finds or creates the supplier by CNPJ, makes each duplicata a payable on its date, checks the total and imports once', async () => {
    const { users } = await asUser(t, [7, 3]);
    const [financial, seller] = users.map((u) => u.token);
    const cnpj = makeCnpj('778899000001');
    const xml = nfeProc({
      cnpj,
      number: '1234',
      vNF: '1000.01',
      dups: [
        ['001', '2026-12-20', '333.34'],
        ['002', '2027-01-19', '333.34'],
        ['003', '2027-02-18', '333.33'],
      ],
    });
    const imported = expectStatus(await send(financial, xml), 201);
    expect(imported).toMatchObject({
      supplier: { name: 'Distribuidora Paulista de Alimentos Ltda', created: true },
      number: '1234',
      totalCents: 100001,
    });
    expect(
      imported.items.map((p: { dueDate: string; amountCents: number; documentNumber: string }) => [
        p.dueDate,
        p.amountCents,
        p.documentNumber,
      ]),
    ).toEqual([
      ['2026-12-20', 33334, '1234/001'],
      ['2027-01-19', 33334, '1234/002'],
      ['2027-02-18', 33333, '1234/003'],
    ]);
    expect(imported.items[0]).toMatchObject({
      description: 'NF-e 1234 - Distribuidora Paulista de Alimentos Ltda',
      competenceMonth: '2026-11',
      category: { name: 'Compra de mercadorias', group: 'cmv' },
      series: { kind: 'installments', index: 1, count: 3 },
    });

    const again = await send(financial, xml);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A NF-e 1234 deste fornecedor já foi importada');

    // Another note of the same supplier, paid on the spot (no duplicatas): one bill on its issue date.
    const cash = expectStatus(
      await send(financial, nfeProc({ cnpj, number: '1235', vNF: '89.90', dups: [] })),
      201,
    );
    expect(cash.supplier).toMatchObject({ id: imported.supplier.id, created: false });
    expect(cash.items).toMatchObject([{ amountCents: 8990, dueDate: '2026-11-20', series: { count: 1 } }]);

    const wrong = await send(
      financial,
      nfeProc({ cnpj, number: '1236', vNF: '500.00', dups: [['001', '2026-12-01', '200.00']] }),
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(
      'As duplicatas somam R$ 200,00, mas a fatura da NF-e é de R$ 500,00: confira o XML com o fornecedor',
    );
    const notNfe = await send(financial, '<?xml version="1.0"?><pedido><numero>1</numero></pedido>');
    expect(notNfe.statusCode).toBe(422);
    expect(notNfe.json().message).toBe(
      'Este XML não é uma NF-e: envie o nfeProc (o XML da nota) que o fornecedor mandou',
    );
    const pdf = await send(financial, Buffer.from('%PDF-1.4\n'));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toBe('Envie o arquivo XML da NF-e (nfeProc) que o fornecedor mandou');
    expect((await send(seller, xml)).statusCode).toBe(403);
    // Nothing of the refused notes was written.
    const list = expectStatus(
      await t.app.inject({ method: 'GET', url: '/v1/payable?pageSize=50', headers: bearer(financial) }),
      200,
    );
    expect(list.total).toBe(4);
  });
});
