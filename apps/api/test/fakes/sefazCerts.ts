import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/**
 * Test PKI for the fake SEFAZ (issue 32): a local CA, the SEFAZ server's certificate for 127.0.0.1 /
 * localhost, and ICP-Brasil-shaped A1 certificates (e-CNPJ: the CNPJ in the SAN otherName
 * 2.16.76.1.3.3 and in the CN after ':'), packed as .pfx with a password like a shop's. Keys come
 * from Node's crypto (fast), the certificates and PKCS#12 from node-forge.
 */
export type TestCa = {
  certPem: string;
  keyPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
};

function rsaKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

let serial = 1;
function baseCert(publicKey: forge.pki.PublicKey, days: { from: number; to: number }) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = (serial++).toString(16).padStart(4, '0');
  const now = Date.now();
  cert.validity.notBefore = new Date(now + days.from * 86_400_000);
  cert.validity.notAfter = new Date(now + days.to * 86_400_000);
  return cert;
}

export function makeTestCa(name = 'AC Teste Balcao'): TestCa {
  const keys = rsaKeys();
  const cert = baseCert(keys.publicKey, { from: -1, to: 3650 });
  const attrs = [
    { name: 'commonName', value: name },
    { name: 'countryName', value: 'BR' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    cert,
    key: keys.privateKey,
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/** The fake SEFAZ's TLS certificate (127.0.0.1 and localhost). */
export function makeServerCert(ca: TestCa): { certPem: string; keyPem: string } {
  const keys = rsaKeys();
  const cert = baseCert(keys.publicKey, { from: -1, to: 3650 });
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
    { name: 'extKeyUsage', serverAuth: true },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** An e-CNPJ A1 as a .pfx (base64) sealed with `password` (3DES, as many A1s are). */
export function makeA1(
  ca: TestCa,
  options: { cnpj: string; name: string; password: string; validDays?: { from: number; to: number } },
): { pfxBase64: string; certPem: string; keyPem: string } {
  const keys = rsaKeys();
  const cert = baseCert(keys.publicKey, options.validDays ?? { from: -1, to: 365 });
  cert.setSubject([
    { name: 'commonName', value: `${options.name}:${options.cnpj}` },
    { name: 'organizationName', value: 'ICP-Brasil' },
    { name: 'countryName', value: 'BR' },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  const cnpjOtherName = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [
    forge.asn1.create(
      forge.asn1.Class.UNIVERSAL,
      forge.asn1.Type.OID,
      false,
      forge.asn1.oidToDer('2.16.76.1.3.3').getBytes(),
    ),
    forge.asn1.create(forge.asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.OCTETSTRING, false, options.cnpj),
    ]),
  ]);
  const san = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [
    forge.asn1.create(forge.asn1.Class.CONTEXT_SPECIFIC, 0, true, cnpjOtherName.value as forge.asn1.Asn1[]),
  ]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, nonRepudiation: true },
    { name: 'extKeyUsage', clientAuth: true, emailProtection: true },
    { name: 'subjectAltName', value: forge.asn1.toDer(san).getBytes() } as never,
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert, ca.cert], options.password, {
    algorithm: '3des',
  });
  return {
    pfxBase64: forge.util.encode64(forge.asn1.toDer(p12).getBytes()),
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}
