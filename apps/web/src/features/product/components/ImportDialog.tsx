import { formatCents } from '@balcao/core/money';
import { PRODUCT_CSV_COLUMNS, PRODUCT_CSV_FISCAL_COLUMNS } from '@balcao/core/product';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { alignRight, ListTable } from '../../../components/listPage.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { readCsvFile, undecodedWarning } from '../../../lib/csvFile.ts';
import { type ImportOutcome, importResultOf, previewImport, useRunImport } from '../api.ts';

type Phase =
  | { kind: 'choose' }
  | { kind: 'checking'; fileName: string }
  | { kind: 'preview'; fileName: string; csv: string; result: ImportOutcome; undecoded: string | null }
  | { kind: 'importing'; done: number; total: number }
  | { kind: 'done'; result: ImportOutcome }
  | { kind: 'failed'; message: string; result?: ImportOutcome };

const TEMPLATE_ROWS = [
  [
    'X-Burger',
    'LAN-001',
    '',
    'simples',
    'un',
    '25,90',
    '9,50',
    'Lanches',
    '',
    'sim',
    'nao',
    '',
    '',
    '',
    '',
    '',
    '',
    'Pão, hambúrguer e queijo',
    '',
    // NFC-e: NCM, CFOP, CSOSN, origem, CEST, unidade fiscal, cClassTrib and its CST (bares e restaurantes).
    '21069090',
    '5102',
    '102',
    '0',
    '',
    'UN',
    '200047',
    '200',
  ],
  [
    'Coca-Cola Lata 350ml',
    'BEB-001',
    '7894900011517',
    'simples',
    'un',
    '6,00',
    '3,20',
    'Bebidas',
    'Coca-Cola',
    'sim',
    'sim',
    '48',
    '12',
    '0,35',
    '12',
    '6,6',
    '6,6',
    '',
    '',
    '22021000',
    '5102',
    '102',
    '0',
    '',
    'UN',
    '000001',
    '000',
  ],
];

function downloadTemplate() {
  const header = [...PRODUCT_CSV_COLUMNS, ...PRODUCT_CSV_FISCAL_COLUMNS];
  const csv = `\uFEFF${[header.join(';'), ...TEMPLATE_ROWS.map((r) => r.join(';'))].join('\r\n')}\r\n`;
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'modelo-produtos.csv';
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

function ErrorTable({ result }: { result: ImportOutcome }) {
  if (result.errors.length === 0) return null;
  return (
    <ListTable
      label="Erros por linha"
      head={['Linha', 'Coluna', 'Erro']}
      stickyHeader
      maxHeight={240}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      {result.errors.slice(0, 500).map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line can have several errors; the list never reorders
        <TableRow key={i} data-testid="import-error">
          <TableCell>{e.line}</TableCell>
          <TableCell>{e.column ?? '—'}</TableCell>
          <TableCell>{e.message}</TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}

function PreviewTable({ result }: { result: ImportOutcome }) {
  if (result.preview.length === 0) return null;
  return (
    <ListTable
      label="Prévia da importação"
      head={['Linha', 'Ação', 'Nome', 'SKU', alignRight('Preço'), 'Categoria']}
      stickyHeader
      maxHeight={240}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      {result.preview.map((row) => (
        <TableRow key={row.line}>
          <TableCell>{row.line}</TableCell>
          <TableCell>{row.action === 'create' ? 'Criar' : 'Atualizar'}</TableCell>
          <TableCell>{row.name}</TableCell>
          <TableCell>{row.sku ?? '—'}</TableCell>
          <TableCell align="right">{formatCents(row.salePriceCents)}</TableCell>
          <TableCell>{row.category ?? '—'}</TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}

/** CSV import: choose a file, see every line checked (nothing written), then import with a progress bar. */
export function ImportDialog({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const run = useRunImport();
  const titleId = useId();
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [skipInvalid, setSkipInvalid] = useState(false);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPhase({ kind: 'checking', fileName: file.name });
    setSkipInvalid(false);
    try {
      const { text: csv, undecodedLines } = await readCsvFile(file);
      const result = await previewImport(csv, false);
      setPhase({
        kind: 'preview',
        fileName: file.name,
        csv,
        result,
        undecoded: undecodedWarning(undecodedLines),
      });
    } catch (error) {
      setPhase({ kind: 'failed', message: errorMessage(error) });
    }
  };

  const start = async () => {
    if (phase.kind !== 'preview') return;
    const { csv, result } = phase;
    setPhase({ kind: 'importing', done: 0, total: result.validLines });
    try {
      const outcome = await run.mutateAsync({
        csv,
        skipInvalid,
        onProgress: (done, total) => setPhase({ kind: 'importing', done, total }),
      });
      setPhase({ kind: 'done', result: outcome });
      onImported();
    } catch (error) {
      setPhase({ kind: 'failed', message: errorMessage(error), result: importResultOf(error) });
    }
  };

  const busy = phase.kind === 'checking' || phase.kind === 'importing';
  const preview = phase.kind === 'preview' ? phase.result : undefined;
  const canImport =
    preview !== undefined && preview.validLines > 0 && (preview.errors.length === 0 || skipInvalid);

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Importar produtos (CSV)</DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            Planilha CSV separada por ponto e vírgula, com cabeçalho. Obrigatórias: <b>nome</b> e{' '}
            <b>preco_venda</b>. Produtos com SKU já cadastrado são atualizados (só as colunas presentes);
            categorias e marcas novas são criadas. Nada é gravado se alguma linha tiver erro, a menos que você
            escolha pular essas linhas.
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Dados fiscais (NFC-e), opcionais: <b>{PRODUCT_CSV_FISCAL_COLUMNS.join(', ')}</b>. Em branco, vale
            o padrão da loja. <b>cclasstrib</b> é a classificação do IBS/CBS (6 dígitos da tabela oficial, por
            exemplo 000001); <b>cst_ibs_cbs</b>, se preenchido, deve ser igual aos 3 primeiros dígitos dela.
          </Typography>
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            <Button component="label" variant="contained" startIcon={<UploadFileIcon />} disabled={busy}>
              Escolher arquivo
              <Box
                component="input"
                type="file"
                accept=".csv,text/csv"
                aria-label="Arquivo CSV"
                data-testid="import-file"
                sx={{ display: 'none' }}
                onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
                  void choose(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </Button>
            <Button onClick={downloadTemplate} disabled={busy}>
              Baixar modelo
            </Button>
          </Stack>

          {phase.kind === 'checking' && (
            <Box>
              <Typography variant="body2" sx={{ mb: 1 }}>
                Verificando {phase.fileName}...
              </Typography>
              <LinearProgress />
            </Box>
          )}

          {preview && phase.kind === 'preview' && (
            <>
              <Alert severity={preview.errors.length ? 'warning' : 'info'}>
                {phase.fileName}: {preview.totalLines} {preview.totalLines === 1 ? 'linha' : 'linhas'},{' '}
                {preview.validLines} {preview.validLines === 1 ? 'válida' : 'válidas'}
                {preview.invalidLines > 0 && `, ${preview.invalidLines} com erro`}.
                {preview.ignoredColumns?.length
                  ? ` Colunas ignoradas: ${preview.ignoredColumns.join(', ')}.`
                  : ''}
              </Alert>
              {phase.undecoded && (
                <Alert severity="warning" data-testid="import-encoding-warning">
                  {phase.undecoded}
                </Alert>
              )}
              <ErrorTable result={preview} />
              <PreviewTable result={preview} />
              {preview.errors.length > 0 && preview.validLines > 0 && (
                <FormControlLabel
                  label="Pular as linhas com erro e importar as válidas"
                  control={
                    <Checkbox checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
                  }
                />
              )}
            </>
          )}

          {phase.kind === 'importing' && (
            <Box>
              <Typography variant="body2" sx={{ mb: 1 }}>
                Importando... {phase.done} de {phase.total}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={phase.total ? Math.round((phase.done * 100) / phase.total) : 0}
                aria-label="Progresso da importação"
              />
            </Box>
          )}

          {phase.kind === 'done' && (
            <Alert severity="success">
              Importação concluída: {phase.result.created}{' '}
              {phase.result.created === 1 ? 'produto criado' : 'produtos criados'}, {phase.result.updated}{' '}
              {phase.result.updated === 1 ? 'atualizado' : 'atualizados'}
              {phase.result.skipped > 0 &&
                `, ${phase.result.skipped} ${phase.result.skipped === 1 ? 'linha pulada' : 'linhas puladas'}`}
              .
            </Alert>
          )}

          {phase.kind === 'failed' && (
            <>
              <Alert severity="error">{phase.message}</Alert>
              {phase.result && <ErrorTable result={phase.result} />}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {phase.kind === 'done' ? 'Fechar' : 'Cancelar'}
        </Button>
        {phase.kind === 'preview' && (
          <Button variant="contained" onClick={start} disabled={!canImport}>
            Importar {preview?.validLines ?? 0} {preview?.validLines === 1 ? 'produto' : 'produtos'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
