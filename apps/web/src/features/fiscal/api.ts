import { fiscalApi } from '@balcao/core/endpoints/fiscal';
import { useQuery } from '@tanstack/react-query';
import { download, fileOf, queryOf, useCall } from '../../lib/client.ts';

/** NFC-e (issue 32): the issuer, its certificate, the notes, cancel and voiding. */
export const fiscalQueries = {
  settings: () => queryOf(fiscalApi.settings, {}),
  status: () => queryOf(fiscalApi.status, {}),
  notes: () => queryOf(fiscalApi.notes, {}),
  ofSale: (id: number) => queryOf(fiscalApi.ofSale, { params: { id } }),
  product: (id: number) => queryOf(fiscalApi.product, { params: { id } }),
  epecStatus: () => queryOf(fiscalApi.epecStatus, {}),
};

/** Whether the shop issues NFC-e (kept from the last answer while offline). */
export const useNfceOn = () =>
  useQuery({ ...fiscalQueries.status(), staleTime: 60_000, gcTime: Number.POSITIVE_INFINITY }).data
    ?.enabled === true;
export const useFiscalSettings = () => useQuery(fiscalQueries.settings());
/** São Paulo's EPEC service status, asked of SEFAZ-SP when the page opens (and on "Consultar"). */
export const useEpecStatus = (enabled: boolean) =>
  useQuery({ ...fiscalQueries.epecStatus(), enabled, staleTime: 0, retry: false });
export const useFiscalNotes = () => useQuery({ ...fiscalQueries.notes(), refetchInterval: 5000 });
/** A sale's note; asked again while it is being sent. */
export const useSaleFiscalNote = (id: number) =>
  useQuery({
    ...fiscalQueries.ofSale(id),
    refetchInterval: (query) => (query.state.data?.note?.status === 'pending' ? 1500 : false),
  });

/** A product's fiscal fields and the shop's defaults (the Administrador's; others get nothing). */
export const useProductFiscal = (id: number, enabled = true) =>
  useQuery({ ...fiscalQueries.product(id), enabled, retry: false });
export const useSaveProductFiscal = () => useCall(fiscalApi.saveProduct);
export const useSaveFiscalSettings = () => useCall(fiscalApi.saveSettings);
export const useUploadCertificate = () => useCall(fiscalApi.certificate);
export const useCancelNote = () => useCall(fiscalApi.cancel);
export const useVoidNumbers = () => useCall(fiscalApi.voidNumbers);

export const downloadNoteXml = (id: number, key: string) =>
  download(fiscalApi.xml, { params: { id } }, `${key}-nfce.xml`, 'Não foi possível baixar o XML');

/** The accountant's ZIP of a month (AAAA-MM). */
export const downloadMonthZip = (month: string) =>
  download(
    fiscalApi.monthZip,
    { query: { month } },
    `nfce-${month}.zip`,
    'Não foi possível baixar o ZIP do mês',
  );

/** Opens the DANFE NFC-e (PDF) in a new tab. */
export async function openDanfe(id: number) {
  const pdf = await fileOf(fiscalApi.danfe, { params: { id } }, 'Não foi possível abrir o DANFE');
  const url = URL.createObjectURL(pdf);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
