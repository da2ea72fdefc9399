// GENERATED from nfephp-org/sped-nfe storage/wsnfe_4.00_mod65.xml (web services and QR code query
// URLs per UF and environment), storage/uri_consulta_nfce.json (the key query URL printed on the
// DANFE, urlChave) and storage/autorizadores.json (which authoriser serves a state's NFC-e: its own
// or SVRS). Those files follow the official web-services table of the NFC-e portal. Regenerate rather
// than edit by hand. Environment keys: '1' produção, '2' homologação.

export type SefazServiceUrls = {
  authorize?: string;
  voidNumbers?: string;
  query?: string;
  status?: string;
  event?: string;
  /** São Paulo's EPEC NFC-e services (RecepcaoEPEC, EPECStatusServico). */
  epec?: string;
  epecStatus?: string;
  /** The consumer's QR code query page (NfeConsultaQR). */
  qrCode?: string;
  /** The key query address printed on the DANFE (urlChave). */
  keyQuery: string;
};

/** Which authoriser serves each state's NFC-e (model 65). */
export const NFCE_AUTHORISER: Record<string, string> = {
  AC: 'SVRS',
  AL: 'SVRS',
  AM: 'AM',
  AP: 'SVRS',
  BA: 'SVRS',
  CE: 'SVRS',
  DF: 'SVRS',
  ES: 'SVRS',
  GO: 'GO',
  MA: 'SVRS',
  MG: 'MG',
  MS: 'MS',
  MT: 'MT',
  PA: 'SVRS',
  PB: 'SVRS',
  PE: 'SVRS',
  PI: 'SVRS',
  PR: 'PR',
  RJ: 'SVRS',
  RN: 'SVRS',
  RO: 'SVRS',
  RR: 'SVRS',
  RS: 'RS',
  SC: 'SVRS',
  SE: 'SVRS',
  SP: 'SP',
  TO: 'SVRS',
  SVRS: 'SVRS',
};

/** Per authoriser or state code, per environment ('1' produção, '2' homologação). */
export const NFCE_WEB_SERVICES: Record<string, Partial<Record<'1' | '2', SefazServiceUrls>>> = {
  AC: {
    '2': {
      qrCode: 'http://www.hml.sefaznet.ac.gov.br/nfce/qrcode',
      keyQuery: 'www.sefaznet.ac.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.sefaznet.ac.gov.br/nfce/qrcode',
      keyQuery: 'www.sefaznet.ac.gov.br/nfce/consulta',
    },
  },
  AL: {
    '2': {
      qrCode: 'http://nfce.sefaz.al.gov.br/QRCode/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.al.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://nfce.sefaz.al.gov.br/QRCode/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.al.gov.br/nfce/consulta',
    },
  },
  AM: {
    '2': {
      authorize: 'https://homnfce.sefaz.am.gov.br/nfce-services/services/NfeAutorizacao4',
      voidNumbers: 'https://homnfce.sefaz.am.gov.br/nfce-services/services/NfeInutilizacao4',
      query: 'https://homnfce.sefaz.am.gov.br/nfce-services/services/NfeConsulta4',
      status: 'https://homnfce.sefaz.am.gov.br/nfce-services/services/NfeStatusServico4',
      event: 'https://homnfce.sefaz.am.gov.br/nfce-services/services/RecepcaoEvento4',
      qrCode: 'https://sistemas.sefaz.am.gov.br/nfceweb-hom/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.am.gov.br/nfce/consulta',
    },
    '1': {
      authorize: 'https://nfce.sefaz.am.gov.br/nfce-services/services/NfeAutorizacao4',
      voidNumbers: 'https://nfce.sefaz.am.gov.br/nfce-services/services/NfeInutilizacao4',
      query: 'https://nfce.sefaz.am.gov.br/nfce-services/services/NfeConsulta4',
      status: 'https://nfce.sefaz.am.gov.br/nfce-services/services/NfeStatusServico4',
      event: 'https://nfce.sefaz.am.gov.br/nfce-services/services/RecepcaoEvento4',
      qrCode: 'https://sistemas.sefaz.am.gov.br/nfceweb/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.am.gov.br/nfce/consulta',
    },
  },
  AP: {
    '2': {
      qrCode: 'https://www.sefaz.ap.gov.br/nfcehml/nfce.php',
      keyQuery: 'www.sefaz.ap.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'https://www.sefaz.ap.gov.br/nfce/nfcep.php',
      keyQuery: 'www.sefaz.ap.gov.br/nfce/consulta',
    },
  },
  BA: {
    '2': {
      qrCode: 'http://hnfe.sefaz.ba.gov.br/servicos/nfce/qrcode.aspx',
      keyQuery: 'http://hinternet.sefaz.ba.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://nfe.sefaz.ba.gov.br/servicos/nfce/qrcode.aspx',
      keyQuery: 'http://www.sefaz.ba.gov.br/nfce/consulta',
    },
  },
  CE: {
    '2': {
      qrCode: 'http://nfceh.sefaz.ce.gov.br/pages/ShowNFCe.html',
      keyQuery: 'www.sefaz.ce.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://nfce.sefaz.ce.gov.br/pages/ShowNFCe.html',
      keyQuery: 'www.sefaz.ce.gov.br/nfce/consulta',
    },
  },
  ES: {
    '2': {
      qrCode: 'http://homologacao.sefaz.es.gov.br/ConsultaNFCe/qrcode.aspx',
      keyQuery: 'www.sefaz.es.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://app.sefaz.es.gov.br/ConsultaNFCe/qrcode.aspx',
      keyQuery: 'www.sefaz.es.gov.br/nfce/consulta',
    },
  },
  DF: {
    '2': {
      qrCode: 'http://dec.fazenda.df.gov.br/ConsultarNFCe.aspx',
      keyQuery: 'www.fazenda.df.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.fazenda.df.gov.br/nfce/qrcode',
      keyQuery: 'www.fazenda.df.gov.br/nfce/consulta',
    },
  },
  GO: {
    '2': {
      authorize: 'https://homolog.sefaz.go.gov.br/nfe/services/NFeAutorizacao4',
      voidNumbers: 'https://homolog.sefaz.go.gov.br/nfe/services/NFeInutilizacao4',
      query: 'https://homolog.sefaz.go.gov.br/nfe/services/NFeConsultaProtocolo4',
      status: 'https://homolog.sefaz.go.gov.br/nfe/services/NFeStatusServico4',
      event: 'https://homolog.sefaz.go.gov.br/nfe/services/NFeRecepcaoEvento4',
      qrCode: 'https://nfewebhomolog.sefaz.go.gov.br/nfeweb/sites/nfce/danfeNFCe',
      keyQuery: 'www.nfce.go.gov.br/post/ver/214413/consulta-nfc-e-homologacao',
    },
    '1': {
      authorize: 'https://nfe.sefaz.go.gov.br/nfe/services/NFeAutorizacao4',
      voidNumbers: 'https://nfe.sefaz.go.gov.br/nfe/services/NFeInutilizacao4',
      query: 'https://nfe.sefaz.go.gov.br/nfe/services/NFeConsultaProtocolo4',
      status: 'https://nfe.sefaz.go.gov.br/nfe/services/NFeStatusServico4',
      event: 'https://nfe.sefaz.go.gov.br/nfe/services/NFeRecepcaoEvento4',
      qrCode: 'https://nfeweb.sefaz.go.gov.br/nfeweb/sites/nfce/danfeNFCe',
      keyQuery: 'www.sefaz.go.gov.br/nfce/consulta',
    },
  },
  MA: {
    '2': {
      qrCode: 'http://www.hom.nfce.sefaz.ma.gov.br/portal/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.ma.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.nfce.sefaz.ma.gov.br/portal/consultarNFCe.jsp',
      keyQuery: 'www.sefaz.ma.gov.br/nfce/consulta',
    },
  },
  MG: {
    '2': {
      authorize: 'https://hnfce.fazenda.mg.gov.br/nfce/services/NFeAutorizacao4',
      voidNumbers: 'https://hnfce.fazenda.mg.gov.br/nfce/services/NFeInutilizacao4',
      query: 'https://hnfce.fazenda.mg.gov.br/nfce/services/NFeConsultaProtocolo4',
      status: 'https://hnfce.fazenda.mg.gov.br/nfce/services/NFeStatusServico4',
      event: 'https://hnfce.fazenda.mg.gov.br/nfce/services/NFeRecepcaoEvento4',
      qrCode: 'https://portalsped.fazenda.mg.gov.br/portalnfce/sistema/qrcode.xhtml',
      keyQuery: 'https://hportalsped.fazenda.mg.gov.br/portalnfce',
    },
    '1': {
      authorize: 'https://nfce.fazenda.mg.gov.br/nfce/services/NFeAutorizacao4',
      voidNumbers: 'https://nfce.fazenda.mg.gov.br/nfce/services/NFeInutilizacao4',
      query: 'https://nfce.fazenda.mg.gov.br/nfce/services/NFeConsultaProtocolo4',
      status: 'https://nfce.fazenda.mg.gov.br/nfce/services/NFeStatusServico4',
      event: 'https://nfce.fazenda.mg.gov.br/nfce/services/NFeRecepcaoEvento4',
      qrCode: 'https://portalsped.fazenda.mg.gov.br/portalnfce/sistema/qrcode.xhtml',
      keyQuery: 'https://portalsped.fazenda.mg.gov.br/portalnfce',
    },
  },
  MT: {
    '2': {
      authorize: 'https://homologacao.sefaz.mt.gov.br/nfcews/services/NfeAutorizacao4',
      voidNumbers: 'https://homologacao.sefaz.mt.gov.br/nfcews/services/NfeInutilizacao4',
      query: 'https://homologacao.sefaz.mt.gov.br/nfcews/services/NfeConsulta4',
      status: 'https://homologacao.sefaz.mt.gov.br/nfcews/services/NfeStatusServico4',
      event: 'https://homologacao.sefaz.mt.gov.br/nfcews/services/RecepcaoEvento4',
      qrCode: 'http://homologacao.sefaz.mt.gov.br/nfce/consultanfce',
      keyQuery: 'http://homologacao.sefaz.mt.gov.br/nfce/consultanfce',
    },
    '1': {
      authorize: 'https://nfce.sefaz.mt.gov.br/nfcews/services/NfeAutorizacao4',
      voidNumbers: 'https://nfce.sefaz.mt.gov.br/nfcews/services/NfeInutilizacao4',
      query: 'https://nfce.sefaz.mt.gov.br/nfcews/services/NfeConsulta4',
      status: 'https://nfce.sefaz.mt.gov.br/nfcews/services/NfeStatusServico4',
      event: 'https://nfce.sefaz.mt.gov.br/nfcews/services/RecepcaoEvento4',
      qrCode: 'http://www.sefaz.mt.gov.br/nfce/consultanfce',
      keyQuery: 'http://www.sefaz.mt.gov.br/nfce/consultanfce',
    },
  },
  MS: {
    '2': {
      authorize: 'https://hom.nfce.sefaz.ms.gov.br/ws/NFeAutorizacao4',
      voidNumbers: 'https://hom.nfce.sefaz.ms.gov.br/ws/NFeInutilizacao4',
      query: 'https://hom.nfce.sefaz.ms.gov.br/ws/NFeConsultaProtocolo4',
      status: 'https://hom.nfce.sefaz.ms.gov.br/ws/NFeStatusServico4',
      event: 'https://hom.nfce.sefaz.ms.gov.br/ws/NFeRecepcaoEvento4',
      qrCode: 'http://www.dfe.ms.gov.br/nfce/qrcode',
      keyQuery: 'http://www.dfe.ms.gov.br/nfce/consulta',
    },
    '1': {
      authorize: 'https://nfce.sefaz.ms.gov.br/ws/NFeAutorizacao4',
      voidNumbers: 'https://nfce.sefaz.ms.gov.br/ws/NFeInutilizacao4',
      query: 'https://nfce.sefaz.ms.gov.br/ws/NFeConsultaProtocolo4',
      status: 'https://nfce.sefaz.ms.gov.br/ws/NFeStatusServico4',
      event: 'https://nfce.sefaz.ms.gov.br/ws/NFeRecepcaoEvento4',
      qrCode: 'http://www.dfe.ms.gov.br/nfce/qrcode',
      keyQuery: 'http://www.dfe.ms.gov.br/nfce/consulta',
    },
  },
  PA: {
    '2': {
      qrCode: 'https://appnfc.sefa.pa.gov.br/portal-homologacao/view/consultas/nfce/nfceForm.seam',
      keyQuery: 'www.sefa.pa.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'https://appnfc.sefa.pa.gov.br/portal/view/consultas/nfce/nfceForm.seam',
      keyQuery: 'www.sefa.pa.gov.br/nfce/consulta',
    },
  },
  PB: {
    '2': {
      qrCode: 'http://www.sefaz.pb.gov.br/nfcehom',
      keyQuery: 'www.sefaz.pb.gov.br/nfcehom',
    },
    '1': {
      qrCode: 'http://www.sefaz.pb.gov.br/nfce',
      keyQuery: 'www.sefaz.pb.gov.br/nfce/consulta',
    },
  },
  PE: {
    '2': {
      qrCode: 'http://nfcehomolog.sefaz.pe.gov.br/nfce/consulta',
      keyQuery: 'nfce.sefaz.pe.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://nfce.sefaz.pe.gov.br/nfce/consulta',
      keyQuery: 'nfce.sefaz.pe.gov.br/nfce/consulta',
    },
  },
  PI: {
    '2': {
      qrCode: 'http://www.sefaz.pi.gov.br/nfce/qrcode',
      keyQuery: 'www.sefaz.pi.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.sefaz.pi.gov.br/nfce/qrcode',
      keyQuery: 'www.sefaz.pi.gov.br/nfce/consulta',
    },
  },
  PR: {
    '2': {
      authorize: 'https://homologacao.nfce.sefa.pr.gov.br/nfce/NFeAutorizacao4',
      voidNumbers: 'https://homologacao.nfce.sefa.pr.gov.br/nfce/NFeInutilizacao4',
      query: 'https://homologacao.nfce.sefa.pr.gov.br/nfce/NFeConsultaProtocolo4',
      status: 'https://homologacao.nfce.sefa.pr.gov.br/nfce/NFeStatusServico4',
      event: 'https://homologacao.nfce.sefa.pr.gov.br/nfce/NFeRecepcaoEvento4',
      qrCode: 'http://www.fazenda.pr.gov.br/nfce/qrcode',
      keyQuery: 'http://www.fazenda.pr.gov.br/nfce/consulta',
    },
    '1': {
      authorize: 'https://nfce.sefa.pr.gov.br/nfce/NFeAutorizacao4',
      voidNumbers: 'https://nfce.sefa.pr.gov.br/nfce/NFeInutilizacao4',
      query: 'https://nfce.sefa.pr.gov.br/nfce/NFeConsultaProtocolo4',
      status: 'https://nfce.sefa.pr.gov.br/nfce/NFeStatusServico4',
      event: 'https://nfce.sefa.pr.gov.br/nfce/NFeRecepcaoEvento4',
      qrCode: 'http://www.fazenda.pr.gov.br/nfce/qrcode',
      keyQuery: 'http://www.fazenda.pr.gov.br/nfce/consulta',
    },
  },
  RJ: {
    '2': {
      qrCode: 'http://www4.fazenda.rj.gov.br/consultaNFCe/QRCode',
      keyQuery: 'www.fazenda.rj.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'https://consultadfe.fazenda.rj.gov.br/consultaNFCe/QRCode',
      keyQuery: 'www.fazenda.rj.gov.br/nfce/consulta',
    },
  },
  RN: {
    '2': {
      qrCode: 'http://hom.nfce.set.rn.gov.br/consultarNFCe.aspx',
      keyQuery: 'www.set.rn.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://nfce.set.rn.gov.br/consultarNFCe.aspx',
      keyQuery: 'www.set.rn.gov.br/nfce/consulta',
    },
  },
  RO: {
    '2': {
      qrCode: 'http://www.nfce.sefin.ro.gov.br/consultanfce/consulta.jsp',
      keyQuery: 'www.sefin.ro.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.nfce.sefin.ro.gov.br/consultanfce/consulta.jsp',
      keyQuery: 'www.sefin.ro.gov.br/nfce/consulta',
    },
  },
  RR: {
    '2': {
      qrCode: 'http://200.174.88.103:8080/nfce/servlet/qrcode',
      keyQuery: 'www.sefaz.rr.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'https://www.sefaz.rr.gov.br/servlet/qrcode',
      keyQuery: 'www.sefaz.rr.gov.br/nfce/consulta',
    },
  },
  RS: {
    '2': {
      authorize: 'https://nfce-homologacao.sefazrs.rs.gov.br/ws/NfeAutorizacao/NFeAutorizacao4.asmx',
      voidNumbers: 'https://nfce-homologacao.sefazrs.rs.gov.br/ws/nfeinutilizacao/nfeinutilizacao4.asmx',
      query: 'https://nfce-homologacao.sefazrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx',
      status: 'https://nfce-homologacao.sefazrs.rs.gov.br/ws/NfeStatusServico/NfeStatusServico4.asmx',
      event: 'https://nfce-homologacao.sefazrs.rs.gov.br/ws/recepcaoevento/recepcaoevento4.asmx',
      qrCode: 'https://www.sefaz.rs.gov.br/NFCE/NFCE-COM.aspx',
      keyQuery: 'www.sefaz.rs.gov.br/nfce/consulta',
    },
    '1': {
      authorize: 'https://nfce.sefazrs.rs.gov.br/ws/NfeAutorizacao/NFeAutorizacao4.asmx',
      voidNumbers: 'https://nfce.sefazrs.rs.gov.br/ws/nfeinutilizacao/nfeinutilizacao4.asmx',
      query: 'https://nfce.sefazrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx',
      status: 'https://nfce.sefazrs.rs.gov.br/ws/NfeStatusServico/NfeStatusServico4.asmx',
      event: 'https://nfce.sefazrs.rs.gov.br/ws/recepcaoevento/recepcaoevento4.asmx',
      qrCode: 'https://www.sefaz.rs.gov.br/NFCE/NFCE-COM.aspx',
      keyQuery: 'www.sefaz.rs.gov.br/nfce/consulta',
    },
  },
  SC: {
    '2': {
      qrCode: 'https://hom.sat.sef.sc.gov.br/nfce/consulta',
      keyQuery: 'https://hom.sat.sef.sc.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'https://sat.sef.sc.gov.br/nfce/consulta',
      keyQuery: 'https://sat.sef.sc.gov.br/nfce/consulta',
    },
  },
  SE: {
    '2': {
      qrCode: 'http://www.hom.nfe.se.gov.br/nfce/qrcode',
      keyQuery: 'http://www.hom.nfe.se.gov.br/nfce/consulta',
    },
    '1': {
      qrCode: 'http://www.nfce.se.gov.br/nfce/qrcode',
      keyQuery: 'http://www.nfce.se.gov.br/nfce/consulta',
    },
  },
  SP: {
    '2': {
      authorize: 'https://homologacao.nfce.fazenda.sp.gov.br/ws/NFeAutorizacao4.asmx',
      voidNumbers: 'https://homologacao.nfce.fazenda.sp.gov.br/ws/NFeInutilizacao4.asmx',
      query: 'https://homologacao.nfce.fazenda.sp.gov.br/ws/NFeConsultaProtocolo4.asmx',
      status: 'https://homologacao.nfce.fazenda.sp.gov.br/ws/NFeStatusServico4.asmx',
      event: 'https://homologacao.nfce.fazenda.sp.gov.br/ws/NFeRecepcaoEvento4.asmx',
      epec: 'https://homologacao.nfce.epec.fazenda.sp.gov.br/EPECws/RecepcaoEPEC.asmx',
      epecStatus: 'https://homologacao.nfce.epec.fazenda.sp.gov.br/EPECws/EPECStatusServico.asmx',
      qrCode: 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode',
      keyQuery: 'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica',
    },
    '1': {
      authorize: 'https://nfce.fazenda.sp.gov.br/ws/NFeAutorizacao4.asmx',
      voidNumbers: 'https://nfce.fazenda.sp.gov.br/ws/NFeInutilizacao4.asmx',
      query: 'https://nfce.fazenda.sp.gov.br/ws/NFeConsultaProtocolo4.asmx',
      status: 'https://nfce.fazenda.sp.gov.br/ws/NFeStatusServico4.asmx',
      event: 'https://nfce.fazenda.sp.gov.br/ws/NFeRecepcaoEvento4.asmx',
      epec: 'https://nfce.epec.fazenda.sp.gov.br/EPECws/RecepcaoEPEC.asmx',
      epecStatus: 'https://nfce.epec.fazenda.sp.gov.br/EPECws/EPECStatusServico.asmx',
      qrCode: 'https://www.nfce.fazenda.sp.gov.br/qrcode',
      keyQuery: 'https://www.nfce.fazenda.sp.gov.br/NFCeConsultaPublica',
    },
  },
  TO: {
    '2': {
      qrCode: 'http://homologacao.sefaz.to.gov.br/nfce/qrcode',
      keyQuery: 'http://homologacao.sefaz.to.gov.br/nfce/consulta.jsf',
    },
    '1': {
      qrCode: 'http://www.sefaz.to.gov.br/nfce/qrcode',
      keyQuery: 'www.sefaz.to.gov.br/nfce/consulta',
    },
  },
  SVRS: {
    '2': {
      authorize: 'https://nfce-homologacao.svrs.rs.gov.br/ws/NfeAutorizacao/NFeAutorizacao4.asmx',
      voidNumbers: 'https://nfce-homologacao.svrs.rs.gov.br/ws/nfeinutilizacao/nfeinutilizacao4.asmx',
      query: 'https://nfce-homologacao.svrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx',
      status: 'https://nfce-homologacao.svrs.rs.gov.br/ws/NfeStatusServico/NfeStatusServico4.asmx',
      event: 'https://nfce-homologacao.svrs.rs.gov.br/ws/recepcaoevento/recepcaoevento4.asmx',
      keyQuery: '',
    },
    '1': {
      authorize: 'https://nfce.svrs.rs.gov.br/ws/NfeAutorizacao/NFeAutorizacao4.asmx',
      voidNumbers: 'https://nfce.svrs.rs.gov.br/ws/nfeinutilizacao/nfeinutilizacao4.asmx',
      query: 'https://nfce.svrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx',
      status: 'https://nfce.svrs.rs.gov.br/ws/NfeStatusServico/NfeStatusServico4.asmx',
      event: 'https://nfce.svrs.rs.gov.br/ws/recepcaoevento/recepcaoevento4.asmx',
      keyQuery: '',
    },
  },
};
