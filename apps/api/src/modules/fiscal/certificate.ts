import { FISCAL_MESSAGES, normalizeCnpj } from '@balcao/core/fiscal';
import forge from 'node-forge';
import { AppError } from '../../errors.ts';

/**
 * The shop's A1 certificate (a PKCS#12 .pfx with its password), read with node-forge: ICP-Brasil A1
 * files are still often sealed with RC2-40 or 3DES, which Node's OpenSSL 3 refuses without its legacy
 * provider (`pfx` in tls options fails with "unsupported"), while node-forge reads them in JavaScript
 * and hands us the key and chain as PEM for Node's TLS and xml-crypto (docs/decisions.md).
 */
export type A1 = {
  keyPem: string;
  certPem: string;
  /** The certificate's base64 DER (X509Certificate in the signature). */
  certBase64: string;
  holder: string;
  cnpj: string;
  notBefore: Date;
  notAfter: Date;
};

/** ICP-Brasil e-CNPJ: the company's CNPJ in the SAN otherName 2.16.76.1.3.3 (DOC-ICP-04). */
const OID_CNPJ = '2.16.76.1.3.3';

function cnpjOf(cert: forge.pki.Certificate): string | null {
  const san = cert.getExtension('subjectAltName') as
    | { altNames?: { type: number; value: unknown }[] }
    | undefined;
  for (const name of san?.altNames ?? []) {
    // otherName (type 0): the raw ASN.1 [type-id OID, [0] value].
    if (name.type !== 0 || !Array.isArray(name.value)) continue;
    const [oid, wrapped] = name.value as forge.asn1.Asn1[];
    if (!oid || forge.asn1.derToOid(oid.value as string) !== OID_CNPJ) continue;
    const inner = (wrapped?.value as forge.asn1.Asn1[] | undefined)?.[0];
    const text = typeof inner?.value === 'string' ? inner.value : '';
    const digits = normalizeCnpj(text);
    if (/^[0-9A-Z]{12}\d{2}$/.test(digits)) return digits;
  }
  // Many A1s also carry it in the CN: "RAZAO SOCIAL:12345678000195".
  const cn = String(cert.subject.getField('CN')?.value ?? '');
  const match = /:([0-9A-Z]{12}\d{2})$/.exec(cn);
  return match ? match[1] : null;
}

/** Opens a .pfx: 422 with the Portuguese text on a wrong password or a file that is not one. */
export function readA1(pfxBase64: string, password: string): A1 {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const der = forge.util.decode64(pfxBase64);
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), password);
  } catch {
    throw new AppError(422, FISCAL_MESSAGES.certificatePassword, [
      { path: 'password', message: FISCAL_MESSAGES.certificatePassword },
    ]);
  }
  const keyBag =
    p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag]?.[0] ??
    p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag]?.[0];
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  // The end-entity certificate is the one whose public key matches the private key.
  const cert = certBags
    .map((bag) => bag.cert)
    .find(
      (c): c is forge.pki.Certificate =>
        !!c && !!key && (c.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n),
    );
  if (!key || !cert) {
    throw new AppError(422, FISCAL_MESSAGES.certificatePassword, [
      { path: 'pfxBase64', message: FISCAL_MESSAGES.certificatePassword },
    ]);
  }
  const cnpj = cnpjOf(cert);
  if (!cnpj) {
    throw new AppError(422, FISCAL_MESSAGES.certificateNoCnpj, [
      { path: 'pfxBase64', message: FISCAL_MESSAGES.certificateNoCnpj },
    ]);
  }
  const certDer = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  return {
    keyPem: forge.pki.privateKeyToPem(key),
    certPem: forge.pki.certificateToPem(cert),
    certBase64: forge.util.encode64(certDer),
    holder: String(cert.subject.getField('CN')?.value ?? ''),
    cnpj,
    notBefore: cert.validity.notBefore,
    notAfter: cert.validity.notAfter,
  };
}

/**
 * The CNPJ of an e-CNPJ certificate given as base64 DER (the X509Certificate of an XML signature), null
 * when it is not a certificate or names no CNPJ. A supplier's NF-e import checks its signer (issue 34).
 */
export function cnpjOfCertificate(derBase64: string): string | null {
  try {
    const cert = forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.decode64(derBase64)));
    return cnpjOf(cert);
  } catch {
    return null;
  }
}
