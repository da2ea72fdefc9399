import { accessKeyCheckDigit } from '@balcao/core/fiscal';
import { signXml } from '../src/modules/fiscal/xml.ts';
import { makeA1, makeTestCa } from './fakes/sefazCerts.ts';

/*
 * A supplier's NF-e 4.00 (model 55) as it arrives with the goods: the nfeProc with the signed NFe and
 * SEFAZ's protocol, valid against the official schema (nfe_v4.00.xsd), signed by an e-CNPJ A1 of the
 * issuer from a test CA (the import checks the signature and the signer's CNPJ, not the chain).
 * Tests and e2e build the notes they import with it.
 */

export type SupplierNfeItem = {
  code: string;
  /** A GTIN, or null for "SEM GTIN". */
  ean: string | null;
  name: string;
  unit?: string;
  quantity: string;
  /** vUnCom as the note writes it ("25.90"). */
  unitPrice: string;
  /** vProd; quantity x unit price when omitted. */
  total?: string;
  discount?: string;
  /** uTrib and qTrib when they differ from uCom / qCom (a box sold as CX, taxed by the unit). */
  taxUnit?: string;
  taxQuantity?: string;
};

export type SupplierNfe = {
  issuerCnpj: string;
  issuerName?: string;
  /** dest's CNPJ (the shop's). */
  recipientCnpj: string;
  number: string;
  issuedOn?: string;
  items: SupplierNfeItem[];
  /** cobr/dup: [nDup, dVenc, vDup]; the fatura's vLiq is their sum unless `invoice` says otherwise. */
  dups?: [string, string, string][];
  invoice?: string;
  /** The CNPJ of the certificate that signs (the issuer's unless a test says otherwise). */
  signerCnpj?: string;
};

/** One test A1 per issuer CNPJ (the import checks the certificate is the issuer's, as SEFAZ does). */
const signers = new Map<string, { keyPem: string; certPem: string }>();
let ca: ReturnType<typeof makeTestCa> | undefined;

const cents = (text: string) => Math.round(Number(text) * 100);
const money = (c: number) => (c / 100).toFixed(2);

export function supplierNfe(o: SupplierNfe): string {
  ca ??= makeTestCa('AC Teste Fornecedor');
  const signerCnpj = o.signerCnpj ?? o.issuerCnpj;
  let signer = signers.get(signerCnpj);
  if (!signer) {
    signer = makeA1(ca, { cnpj: signerCnpj, name: 'FORNECEDOR', password: 'x' });
    signers.set(signerCnpj, signer);
  }
  const issuedOn = o.issuedOn ?? '2026-11-20';
  const number = o.number.padStart(9, '0');
  const base = `35${issuedOn.slice(2, 4)}${issuedOn.slice(5, 7)}${o.issuerCnpj}55001${number}1${'12345678'}`;
  const key = `${base}${accessKeyCheckDigit(base)}`;
  const lines = o.items.map((item) => {
    const gross = item.total ? cents(item.total) : Math.round(Number(item.quantity) * cents(item.unitPrice));
    const discount = item.discount ? cents(item.discount) : 0;
    return { item, gross, discount };
  });
  const gross = lines.reduce((s, l) => s + l.gross, 0);
  const discount = lines.reduce((s, l) => s + l.discount, 0);
  const total = gross - discount;
  const det = lines
    .map(({ item, gross: g, discount: d }, i) => {
      const ean = item.ean ?? 'SEM GTIN';
      const unit = item.unit ?? 'UN';
      const q = Number(item.quantity).toFixed(4);
      const v = Number(item.unitPrice).toFixed(10);
      const qTrib = Number(item.taxQuantity ?? item.quantity).toFixed(4);
      const vTrib = item.taxQuantity ? (g / 100 / Number(item.taxQuantity)).toFixed(10) : v;
      return `<det nItem="${i + 1}"><prod><cProd>${item.code}</cProd><cEAN>${ean}</cEAN><xProd>${item.name}</xProd><NCM>10063021</NCM><CFOP>5102</CFOP><uCom>${unit}</uCom><qCom>${q}</qCom><vUnCom>${v}</vUnCom><vProd>${money(g)}</vProd><cEANTrib>${ean}</cEANTrib><uTrib>${item.taxUnit ?? unit}</uTrib><qTrib>${qTrib}</qTrib><vUnTrib>${vTrib}</vUnTrib>${d ? `<vDesc>${money(d)}</vDesc>` : ''}<indTot>1</indTot></prod><imposto><ICMS><ICMS40><orig>0</orig><CST>41</CST></ICMS40></ICMS></imposto></det>`;
    })
    .join('');
  const dups = o.dups ?? [];
  const vLiq = o.invoice ?? money(dups.reduce((s, d) => s + cents(d[2]), 0));
  const cobr = dups.length
    ? `<cobr><fat><nFat>${o.number}</nFat><vOrig>${vLiq}</vOrig><vDesc>0.00</vDesc><vLiq>${vLiq}</vLiq></fat>${dups
        .map(([n, d, v]) => `<dup><nDup>${n}</nDup><dVenc>${d}</dVenc><vDup>${v}</vDup></dup>`)
        .join('')}</cobr>`
    : '';
  const zero = '0.00';
  const totals = [
    ['vBC', zero],
    ['vICMS', zero],
    ['vICMSDeson', zero],
    ['vFCP', zero],
    ['vBCST', zero],
    ['vST', zero],
    ['vFCPST', zero],
    ['vFCPSTRet', zero],
    ['vProd', money(gross)],
    ['vFrete', zero],
    ['vSeg', zero],
    ['vDesc', money(discount)],
    ['vII', zero],
    ['vIPI', zero],
    ['vIPIDevol', zero],
    ['vPIS', zero],
    ['vCOFINS', zero],
    ['vOutro', zero],
    ['vNF', money(total)],
  ]
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('');
  const nfe = `<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe versao="4.00" Id="NFe${key}"><ide><cUF>35</cUF><cNF>12345678</cNF><natOp>VENDA DE MERCADORIA</natOp><mod>55</mod><serie>1</serie><nNF>${o.number}</nNF><dhEmi>${issuedOn}T10:15:00-03:00</dhEmi><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG><tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${key.slice(43)}</cDV><tpAmb>1</tpAmb><finNFe>1</finNFe><indFinal>0</indFinal><indPres>9</indPres><indIntermed>0</indIntermed><procEmi>0</procEmi><verProc>ERP 1.0</verProc></ide><emit><CNPJ>${o.issuerCnpj}</CNPJ><xNome>${o.issuerName ?? 'Distribuidora Paulista de Alimentos Ltda'}</xNome><enderEmit><xLgr>Rua A</xLgr><nro>10</nro><xBairro>Centro</xBairro><cMun>3550308</cMun><xMun>Sao Paulo</xMun><UF>SP</UF><CEP>01001000</CEP><cPais>1058</cPais><xPais>BRASIL</xPais><fone>1133334444</fone></enderEmit><IE>123456789012</IE><CRT>3</CRT></emit><dest><CNPJ>${o.recipientCnpj}</CNPJ><xNome>Loja Cliente Ltda</xNome><enderDest><xLgr>Rua B</xLgr><nro>20</nro><xBairro>Centro</xBairro><cMun>3550308</cMun><xMun>Sao Paulo</xMun><UF>SP</UF><CEP>01002000</CEP><cPais>1058</cPais><xPais>BRASIL</xPais></enderDest><indIEDest>9</indIEDest></dest>${det}<total><ICMSTot>${totals}</ICMSTot></total><transp><modFrete>0</modFrete></transp>${cobr}<pag><detPag><tPag>15</tPag><vPag>${money(total)}</vPag></detPag></pag></infNFe></NFe>`;
  const signed = signXml(nfe, 'infNFe', signer).xml;
  return `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${signed}<protNFe versao="4.00"><infProt><tpAmb>1</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${key}</chNFe><dhRecbto>${issuedOn}T10:16:00-03:00</dhRecbto><nProt>135260000000001</nProt><digVal>AAAAAAAAAAAAAAAAAAAAAAAAAAA=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe></nfeProc>`;
}
