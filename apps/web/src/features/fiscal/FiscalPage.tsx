import {
  CLASS_TRIB_NFCE,
  CLASS_TRIBS,
  CRT_LABELS,
  CRTS,
  FISCAL_ENVIRONMENT_LABELS,
  FISCAL_ENVIRONMENTS,
  FISCAL_NOTE_STATUS_LABELS,
  type FiscalNote,
  type FiscalSettings,
  fiscalSettingsInputSchema,
  fiscalVoidSchema,
  formatRatePercent,
  IBS_CBS_MODE_LABELS,
  IBS_CBS_MODES,
  IBS_CBS_PART_LABELS,
  IBS_CBS_PARTS,
  IBS_CBS_YEARS,
  type IbsCbsPart,
  lawRate,
  parseRatePercent,
  type ShopIbsCbsRates,
  scheduleOf,
  UFS,
} from '@balcao/core/fiscal';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, shopToday } from '../../lib/format.ts';
import {
  downloadMonthZip,
  downloadNoteXml,
  openDanfe,
  useCancelNote,
  useEpecStatus,
  useFiscalNotes,
  useFiscalSettings,
  useSaveFiscalSettings,
  useUploadCertificate,
  useVoidNumbers,
} from './api.ts';

type Values = {
  enabled: boolean;
  environment: string;
  cnpj: string;
  ie: string;
  legalName: string;
  tradeName: string;
  crt: string;
  uf: string;
  cityCode: string;
  cityName: string;
  street: string;
  streetNumber: string;
  district: string;
  zipCode: string;
  series: string;
  nextNumber: string;
  cscId: string;
  csc: string;
  qrCodeVersion: string;
  ibsCbsMode: string;
  /** The rates the law leaves to be set, as typed ("8,8"), by `y{year}_{part}`. */
  ibsCbsRates: Record<string, string>;
  defaults: {
    ncm: string;
    cfop: string;
    csosn: string;
    origin: string;
    cest: string;
    unit: string;
    cClassTrib: string;
  };
};

/** The cells of the IBS/CBS schedule the shop fills: the years and parts LC 214/2025 leaves to be set. */
const RATE_CELLS = IBS_CBS_YEARS.flatMap((year) =>
  IBS_CBS_PARTS.filter((part) => lawRate(year, part) === null).map((part) => ({
    year,
    part,
    key: `y${year}_${part}`,
  })),
);

function rateTexts(rates: ShopIbsCbsRates | undefined): Record<string, string> {
  return Object.fromEntries(
    RATE_CELLS.map(({ year, part, key }) => {
      const rate = rates?.[String(year)]?.[part];
      return [key, rate === undefined ? '' : formatRatePercent(rate)];
    }),
  );
}

function ratesOf(texts: Record<string, string>): ShopIbsCbsRates {
  const out: ShopIbsCbsRates = {};
  for (const { year, part, key } of RATE_CELLS) {
    const rate = parseRatePercent(texts[key] ?? '');
    if (rate === null) continue;
    // Not a rate: a fraction the schema refuses with its "4 casas decimais" text.
    const row = out[String(year)] ?? {};
    row[part] = Number.isNaN(rate) ? 0.5 : rate;
    out[String(year)] = row;
  }
  return out;
}

function valuesOf(s: FiscalSettings | null): Values {
  return {
    enabled: s?.enabled ?? false,
    environment: s?.environment ?? 'local',
    cnpj: s?.cnpj ?? '',
    ie: s?.ie ?? '',
    legalName: s?.legalName ?? '',
    tradeName: s?.tradeName ?? '',
    crt: s?.crt ?? '1',
    uf: s?.uf ?? 'SP',
    cityCode: s?.cityCode ?? '',
    cityName: s?.cityName ?? '',
    street: s?.street ?? '',
    streetNumber: s?.streetNumber ?? '',
    district: s?.district ?? '',
    zipCode: s?.zipCode ?? '',
    series: String(s?.series ?? 1),
    nextNumber: String(s?.nextNumber ?? 1),
    cscId: s?.cscId ?? '',
    csc: '',
    qrCodeVersion: String(s?.qrCodeVersion ?? 2),
    ibsCbsMode: s?.ibsCbsMode ?? 'auto',
    ibsCbsRates: rateTexts(s?.ibsCbsRates),
    defaults: {
      ncm: s?.defaults.ncm ?? '',
      cfop: s?.defaults.cfop ?? '5102',
      csosn: s?.defaults.csosn ?? '102',
      origin: s?.defaults.origin ?? '0',
      cest: s?.defaults.cest ?? '',
      unit: s?.defaults.unit ?? 'UN',
      cClassTrib: s?.defaults.cClassTrib ?? '000001',
    },
  };
}

const toInput = (v: Values) => ({
  ...v,
  tradeName: v.tradeName.trim() || null,
  series: Number(v.series),
  nextNumber: Number(v.nextNumber),
  qrCodeVersion: v.qrCodeVersion === '3' ? (3 as const) : (2 as const),
  defaults: { ...v.defaults, cest: v.defaults.cest.trim() || null },
  ibsCbsRates: ratesOf(v.ibsCbsRates),
});

/** ibsCbsRates.2027.cbs (schema and server) -> ibsCbsRates.y2027_cbs (the field). */
const fieldOf = (path: string) => path.replace(/^ibsCbsRates\.(\d{4})\.(\w+)$/, 'ibsCbsRates.y$1_$2');

/** 500 -> "0,05%". */
const lawRateText = (year: number, part: IbsCbsPart) => `${formatRatePercent(lawRate(year, part) ?? 0)}%`;

function SettingsForm({
  settings,
  onSaved,
}: {
  settings: FiscalSettings | null;
  onSaved: (m: string) => void;
}) {
  const save = useSaveFiscalSettings();
  const form = useAppForm<Values, ReturnType<typeof fiscalSettingsInputSchema.parse>>({
    schema: fiscalSettingsInputSchema,
    defaultValues: valuesOf(settings),
    toInput,
    fieldOf,
  });
  const qrCodeVersion = form.watch('qrCodeVersion');
  return (
    <Form
      form={form}
      aria-label="Emitente"
      onSubmit={async (values) => {
        const saved = await save.mutateAsync({ body: values });
        form.reset(valuesOf(saved));
        onSaved('Dados fiscais salvos');
      }}
    >
      <Stack spacing={2}>
        <FormSwitch control={form.control} name="enabled" label="Emitir NFC-e em toda venda" />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' } }}>
          <FormTextField control={form.control} name="environment" label="Ambiente" select>
            {FISCAL_ENVIRONMENTS.map((e) => (
              <MenuItem key={e} value={e}>
                {FISCAL_ENVIRONMENT_LABELS[e]}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField control={form.control} name="cnpj" label="CNPJ" />
          <FormTextField control={form.control} name="ie" label="Inscrição estadual" />
          <FormTextField control={form.control} name="legalName" label="Razão social" />
          <FormTextField control={form.control} name="tradeName" label="Nome fantasia" />
          <FormTextField control={form.control} name="crt" label="Regime tributário (CRT)" select>
            {CRTS.map((c) => (
              <MenuItem key={c} value={c}>
                {CRT_LABELS[c]}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField control={form.control} name="uf" label="UF" select>
            {UFS.map((u) => (
              <MenuItem key={u} value={u}>
                {u}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField control={form.control} name="cityCode" label="Código IBGE do município" />
          <FormTextField control={form.control} name="cityName" label="Município" />
          <FormTextField control={form.control} name="street" label="Logradouro" />
          <FormTextField control={form.control} name="streetNumber" label="Número" />
          <FormTextField control={form.control} name="district" label="Bairro" />
          <FormTextField control={form.control} name="zipCode" label="CEP" />
          <FormTextField control={form.control} name="series" label="Série" />
          <FormTextField control={form.control} name="nextNumber" label="Próximo número" />
          {/* QR code v3 (NT 2025.001) has no CSC hash: the CSC fields only with v2. */}
          {qrCodeVersion !== '3' && (
            <>
              <FormTextField control={form.control} name="cscId" label="Identificador do CSC" />
              <FormTextField
                control={form.control}
                name="csc"
                label="CSC"
                type="password"
                helperText={settings?.hasCsc ? 'Guardado. Deixe em branco para manter.' : undefined}
              />
            </>
          )}
          <FormTextField
            control={form.control}
            name="qrCodeVersion"
            label="Versão do QR Code"
            select
            helperText="A versão 3 (NT 2025.001) dispensa o CSC; confirme que a SEFAZ do seu estado já a aceita."
          >
            <MenuItem value="2">Versão 2 (com CSC)</MenuItem>
            <MenuItem value="3">Versão 3 (sem CSC, NT 2025.001)</MenuItem>
          </FormTextField>
        </Box>
        <Typography variant="subtitle1" component="h3">
          Padrões dos produtos
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(6, 1fr)' } }}>
          <FormTextField control={form.control} name="defaults.ncm" label="NCM" />
          <FormTextField control={form.control} name="defaults.cfop" label="CFOP" />
          <FormTextField control={form.control} name="defaults.csosn" label="CSOSN" />
          <FormTextField control={form.control} name="defaults.origin" label="Origem" />
          <FormTextField control={form.control} name="defaults.cest" label="CEST" />
          <FormTextField control={form.control} name="defaults.unit" label="Unidade" />
        </Box>
        <Typography variant="subtitle1" component="h3">
          IBS e CBS (reforma tributária)
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <FormTextField
            control={form.control}
            name="ibsCbsMode"
            label="Grupo IBS/CBS na nota"
            select
            helperText="Obrigatório no regime normal. Em 2026: CBS 0,9% e IBS 0,1% (ano de teste, LC 214/2025). O Simples Nacional só passa a recolher em 2027."
          >
            {IBS_CBS_MODES.map((m) => (
              <MenuItem key={m} value={m}>
                {IBS_CBS_MODE_LABELS[m]}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField
            control={form.control}
            name="defaults.cClassTrib"
            label="Classificação tributária padrão (cClassTrib)"
            select
            helperText="Os 3 primeiros dígitos são o CST do IBS/CBS."
          >
            {CLASS_TRIBS.map((c) => (
              <MenuItem key={c} value={c}>
                {c} - {CLASS_TRIB_NFCE[c].label}
              </MenuItem>
            ))}
          </FormTextField>
        </Box>
        <Typography variant="subtitle2" component="h4">
          Alíquotas por ano da nota (transição da LC 214/2025)
        </Typography>
        <Typography variant="body2" color="text.secondary">
          A nota usa as alíquotas do ano em que é emitida. Onde a lei fixa o número ele já vale; onde ela
          deixa a alíquota para ser fixada depois (alíquotas de referência do Senado, lei do seu estado ou
          município), informe-a em % quando for publicada. Em 2027 e 2028 a CBS informada é reduzida em 0,1
          ponto (art. 347).
        </Typography>
        <Box
          role="group"
          aria-label="Alíquotas do IBS e da CBS por ano"
          sx={{
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: { xs: '1fr', md: '90px 1fr 1fr 1fr' },
            alignItems: 'center',
          }}
        >
          {IBS_CBS_YEARS.map((year) => (
            <Box key={year} sx={{ display: 'contents' }}>
              <Typography
                variant="body2"
                sx={{ fontWeight: 600, mt: { xs: 1, md: 0 } }}
                title={scheduleOf(year).source}
              >
                {year}
              </Typography>
              {IBS_CBS_PARTS.map((part) =>
                lawRate(year, part) === null ? (
                  <FormTextField
                    key={part}
                    control={form.control}
                    name={`ibsCbsRates.y${year}_${part}`}
                    label={`${IBS_CBS_PART_LABELS[part]} ${year} (%)`}
                    size="small"
                    slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  />
                ) : (
                  <Typography key={part} variant="body2" color="text.secondary">
                    {IBS_CBS_PART_LABELS[part]}: {lawRateText(year, part)} (fixada na lei)
                  </Typography>
                ),
              )}
            </Box>
          ))}
        </Box>
        {settings && !settings.offlineContingency && (
          <Alert severity="info">
            Em São Paulo não há contingência off-line: sem resposta da SEFAZ a nota fica na fila e é enviada
            quando a conexão voltar. Se a própria SEFAZ-SP declarar paralisação, a nota sai em contingência
            EPEC e é transmitida quando ela voltar.
          </Alert>
        )}
        <FormError />
        <Box>
          <SubmitButton busyLabel="Salvando...">Salvar dados fiscais</SubmitButton>
        </Box>
      </Stack>
    </Form>
  );
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function CertificateSection({
  settings,
  onSaved,
}: {
  settings: FiscalSettings | null;
  onSaved: (m: string) => void;
}) {
  const upload = useUploadCertificate();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cert = settings?.certificate;
  const send = async () => {
    setError(null);
    if (!file) return setError('Escolha o arquivo .pfx');
    try {
      await upload.mutateAsync({ body: { pfxBase64: await readBase64(file), password } });
      setPassword('');
      onSaved('Certificado salvo');
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Stack spacing={2}>
      {cert ? (
        <Alert severity="success" aria-label="Certificado atual">
          {cert.holder} - CNPJ {cert.cnpj} - válido até {formatDateTime(cert.notAfter)}
        </Alert>
      ) : (
        <Alert severity="warning">Nenhum certificado enviado.</Alert>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <Button variant="outlined" component="label">
          {file ? file.name : 'Escolher arquivo .pfx'}
          <input
            hidden
            type="file"
            accept=".pfx,.p12,application/x-pkcs12"
            aria-label="Arquivo do certificado"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Button>
        <TextField
          label="Senha do certificado"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button variant="contained" onClick={send} disabled={upload.isPending || !settings}>
          Enviar certificado
        </Button>
      </Stack>
      {!settings && (
        <Typography variant="body2">Salve os dados do emitente antes de enviar o certificado.</Typography>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}

const STATUS_COLOR: Record<FiscalNote['status'], 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  pending: 'info',
  contingency: 'warning',
  epec: 'warning',
  queued: 'warning',
  authorised: 'success',
  rejected: 'error',
  canceled: 'default',
  voided: 'default',
};

export function FiscalStatusChip({ note }: { note: FiscalNote }) {
  return (
    <Chip
      size="small"
      color={STATUS_COLOR[note.status]}
      label={FISCAL_NOTE_STATUS_LABELS[note.status]}
      title={note.statusText ?? ''}
    />
  );
}

function NotesSection({ onError }: { onError: (m: string) => void }) {
  const notes = useFiscalNotes();
  if (notes.isPending) return <Loading />;
  if (notes.isError)
    return (
      <LoadError
        what="Não foi possível carregar as notas."
        error={notes.error}
        onRetry={() => notes.refetch()}
      />
    );
  if (notes.data.notes.length === 0) return <Typography>Nenhuma NFC-e emitida ainda.</Typography>;
  return (
    <TableContainer>
      <Table size="small" aria-label="Notas fiscais">
        <TableHead>
          <TableRow>
            <TableCell>Número</TableCell>
            <TableCell>Venda</TableCell>
            <TableCell>Emitida em</TableCell>
            <TableCell align="right">Valor</TableCell>
            <TableCell>Situação</TableCell>
            <TableCell>Ações</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {notes.data.notes.map((note) => (
            <TableRow key={note.id}>
              <TableCell>
                {note.series}/{note.number}
              </TableCell>
              <TableCell>{note.saleId ?? '-'}</TableCell>
              <TableCell>{formatDateTime(note.createdAt)}</TableCell>
              <TableCell align="right">{formatCents(note.totalCents)}</TableCell>
              <TableCell>
                <Stack spacing={0.5}>
                  <FiscalStatusChip note={note} />
                  {note.status !== 'authorised' && note.statusText && (
                    <Typography variant="caption">{note.statusText}</Typography>
                  )}
                  {(note.status === 'contingency' || note.status === 'epec') && note.transmitBy && (
                    <Typography variant="caption">
                      Transmitir até {formatDateTime(note.transmitBy)}
                    </Typography>
                  )}
                </Stack>
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    onClick={() =>
                      downloadNoteXml(note.id, note.accessKey).catch((e) => onError(errorMessage(e)))
                    }
                  >
                    XML
                  </Button>
                  <Button
                    size="small"
                    onClick={() => openDanfe(note.id).catch((e) => onError(errorMessage(e)))}
                  >
                    DANFE
                  </Button>
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function VoidSection({ onSaved }: { onSaved: (m: string) => void }) {
  const voidNumbers = useVoidNumbers();
  const form = useAppForm({
    schema: fiscalVoidSchema,
    defaultValues: { series: '1', from: '', to: '', reason: '' },
    toInput: (v: { series: string; from: string; to: string; reason: string }) => ({
      series: Number(v.series),
      from: Number(v.from),
      to: Number(v.to),
      reason: v.reason,
    }),
  });
  return (
    <Form
      form={form}
      aria-label="Inutilizar numeração"
      onSubmit={async (values) => {
        const result = await voidNumbers.mutateAsync({ body: values });
        form.reset();
        onSaved(`${result.statusText} (protocolo ${result.protocol ?? '-'})`);
      }}
    >
      <Stack spacing={2}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr', md: '1fr 1fr 1fr 3fr' },
          }}
        >
          <FormTextField control={form.control} name="series" label="Série" />
          <FormTextField control={form.control} name="from" label="Do número" />
          <FormTextField control={form.control} name="to" label="Até o número" />
          <FormTextField control={form.control} name="reason" label="Justificativa" />
        </Box>
        <FormError />
        <Box>
          <SubmitButton busyLabel="Enviando...">Inutilizar</SubmitButton>
        </Box>
      </Stack>
    </Form>
  );
}

/** Configurações > Fiscal (issue 32, Administrador): NFC-e issuer, A1 certificate, notes, voiding. */
export default function FiscalPage() {
  const settings = useFiscalSettings();
  const feedback = useFeedback();
  if (settings.isPending) return <Loading />;
  if (settings.isError)
    return (
      <LoadError
        what="Não foi possível carregar os dados fiscais."
        error={settings.error}
        onRetry={() => settings.refetch()}
      />
    );
  const current = settings.data.settings;
  const ok = (message: string) => feedback.show({ severity: 'success', title: message });
  const fail = (message: string) => feedback.show({ severity: 'error', title: message });
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Fiscal
      </Typography>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Emitente e NFC-e
        </Typography>
        <SettingsForm key={current ? 'saved' : 'new'} settings={current} onSaved={ok} />
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Certificado digital A1
        </Typography>
        <CertificateSection settings={current} onSaved={ok} />
      </Paper>
      {current?.uf === 'SP' && current.certificate && (
        <Paper sx={{ p: 2 }}>
          <Typography variant="h6" component="h2" gutterBottom>
            Contingência EPEC (São Paulo)
          </Typography>
          <EpecStatusSection />
        </Paper>
      )}
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Notas emitidas
        </Typography>
        <NotesSection onError={fail} />
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          XMLs do mês para o contador
        </Typography>
        <MonthZipSection onError={fail} />
      </Paper>
      <Paper sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Inutilizar numeração
        </Typography>
        <VoidSection onSaved={ok} />
      </Paper>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}

/** The accountant's ZIP of a month: notes, cancel events, inutilizações and resumo.csv. */
/** São Paulo: the EPEC service's own status (SEFAZ-SP turns it on only when it needs it). */
function EpecStatusSection() {
  const status = useEpecStatus(true);
  if (status.isPending) return <Loading />;
  if (status.isError)
    return (
      <LoadError
        what="Não foi possível consultar o serviço EPEC."
        error={status.error}
        onRetry={() => status.refetch()}
      />
    );
  const s = status.data;
  const severity = s.available === true ? 'success' : s.available === false ? 'warning' : 'info';
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
      <Alert severity={severity} sx={{ width: '100%' }}>
        {s.available === true
          ? 'Serviço EPEC da SEFAZ-SP em operação: se a SEFAZ-SP declarar paralisação, a NFC-e sai em contingência EPEC.'
          : s.available === false
            ? 'Serviço EPEC da SEFAZ-SP não está ativo agora: se a SEFAZ-SP parar, as notas ficam na fila até ela voltar.'
            : s.statusText}
        {s.statusCode && (
          <Typography variant="body2" component="span" sx={{ display: 'block' }}>
            Resposta da SEFAZ-SP: {s.statusCode} - {s.statusText}
            {s.checkedAt ? ` (consultado em ${formatDateTime(s.checkedAt)})` : ''}
          </Typography>
        )}
      </Alert>
      <Button variant="outlined" disabled={status.isFetching} onClick={() => status.refetch()}>
        {status.isFetching ? 'Consultando...' : 'Consultar de novo'}
      </Button>
    </Stack>
  );
}

function MonthZipSection({ onError }: { onError: (m: string) => void }) {
  const [month, setMonth] = useState(() => shopToday().slice(0, 7));
  const [busy, setBusy] = useState(false);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <TextField
        type="month"
        label="Mês"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ maxWidth: 220 }}
      />
      <Button
        variant="outlined"
        disabled={busy || !/^\d{4}-\d{2}$/.test(month)}
        onClick={async () => {
          setBusy(true);
          try {
            await downloadMonthZip(month);
          } catch (error) {
            onError(errorMessage(error));
          } finally {
            setBusy(false);
          }
        }}
      >
        Baixar ZIP do mês
      </Button>
      <Typography variant="body2" color="text.secondary">
        Notas autorizadas e canceladas, eventos de cancelamento, inutilizações e um resumo em CSV.
      </Typography>
    </Stack>
  );
}

export type { FiscalNote };
export { useCancelNote };
