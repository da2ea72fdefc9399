import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { cnpjOfCertificate } from '../fiscal/certificate.ts';

/*
 * The XMLDSig signature of a supplier's NF-e (issue 34), checked before anything is written. The NF-e
 * layout (MOC 7.0, 4.00; PL_009 xmldsig-core-schema_v1.01.xsd) fixes it: one ds:Signature as the last
 * child of NFe, enveloped, C14N 1.0 (REC-xml-c14n-20010315), RSA-SHA1, SHA-1 digest, ONE Reference whose
 * URI is "#" + infNFe's Id, and the signer's certificate in KeyInfo/X509Data/X509Certificate. xml-crypto
 * (already the fiscal module's signer) recomputes the digest and checks the signature value with the
 * public key of that certificate; anything else in SignedInfo is refused, so only the infNFe the reader
 * reads can be the signed one (xml-crypto also refuses a document with two elements of the same Id).
 * As SEFAZ does (rejection 213), the certificate's CNPJ root (first 8 characters) must be the issuer's.
 * The certificate's chain to ICP-Brasil is not checked: the shop holds no ICP-Brasil roots (decisions).
 */

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const RSA_SHA1 = `${DS}rsa-sha1`;
const SHA1 = `${DS}sha1`;
const ENVELOPED = `${DS}enveloped-signature`;

/** Why a supplier's NF-e signature is not accepted; null when it is good. */
export type NfeSignatureIssue = 'unsigned' | 'invalid' | 'notIssuer';

function kids(parent: Element | null | undefined, ns: string, name: string): Element[] {
  const out: Element[] = [];
  if (!parent) return out;
  for (let n = parent.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).localName === name && (n as Element).namespaceURI === ns)
      out.push(n as Element);
  return out;
}
const kid = (parent: Element | null | undefined, ns: string, name: string) =>
  kids(parent, ns, name)[0] ?? null;
const algorithm = (el: Element | null) => el?.getAttribute('Algorithm') ?? null;

/**
 * Checks the signature of the NFe in `xml` (an nfeProc or a bare NFe, already read as an NF-e) for the
 * issuer `issuerDocument` (CNPJ digits). Pure: reads nothing but the text.
 */
export function nfeSignatureIssue(xml: string, issuerDocument: string): NfeSignatureIssue | null {
  const doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const nfe = root?.localName === 'NFe' ? root : kid(root, NFE_NS, 'NFe');
  const inf = kid(nfe, NFE_NS, 'infNFe');
  const signatures = kids(nfe, DS, 'Signature');
  if (!nfe || !inf || signatures.length === 0) return 'unsigned';
  if (signatures.length > 1) return 'invalid';
  const signature = signatures[0];
  const signedInfo = kid(signature, DS, 'SignedInfo');
  const references = kids(signedInfo, DS, 'Reference');
  if (
    references.length !== 1 ||
    algorithm(kid(signedInfo, DS, 'CanonicalizationMethod')) !== C14N ||
    algorithm(kid(signedInfo, DS, 'SignatureMethod')) !== RSA_SHA1
  )
    return 'invalid';
  const reference = references[0];
  const transforms = kids(kid(reference, DS, 'Transforms'), DS, 'Transform').map(algorithm);
  if (
    reference.getAttribute('URI') !== `#${inf.getAttribute('Id')}` ||
    algorithm(kid(reference, DS, 'DigestMethod')) !== SHA1 ||
    transforms.length !== 2 ||
    transforms[0] !== ENVELOPED ||
    transforms[1] !== C14N
  )
    return 'invalid';
  const certBase64 = (
    kid(kid(kid(signature, DS, 'KeyInfo'), DS, 'X509Data'), DS, 'X509Certificate')?.textContent ?? ''
  ).replace(/\s+/g, '');
  let certPem: string;
  try {
    certPem = new X509Certificate(Buffer.from(certBase64, 'base64')).toString();
  } catch {
    return 'invalid';
  }
  const verifier = new SignedXml({ publicCert: certPem, getCertFromKeyInfo: () => null });
  try {
    verifier.loadSignature(new XMLSerializer().serializeToString(signature));
    if (!verifier.checkSignature(xml) || verifier.getSignedReferences().length !== 1) return 'invalid';
  } catch {
    return 'invalid';
  }
  // A CPF issuer (a rural producer's e-CPF) has no CNPJ root to compare.
  if (issuerDocument.length !== 14) return null;
  const signer = cnpjOfCertificate(certBase64);
  if (!signer || signer.slice(0, 8) !== issuerDocument.slice(0, 8)) return 'notIssuer';
  return null;
}
