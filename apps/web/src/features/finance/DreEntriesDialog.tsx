import { formatDateBr } from '@balcao/core/date';
import { financeApi } from '@balcao/core/endpoints/finance';
import { type DRE_DRILL_LINES, DRE_ENTRIES_MAX, type DreEntry } from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { ExportBar } from '../report/index.ts';
import { useDreEntries } from './api.ts';

type DreDrillLine = (typeof DRE_DRILL_LINES)[number];

const linkOf = (entry: DreEntry) =>
  entry.id === null
    ? null
    : entry.kind === 'payable'
      ? `/dashboard/payable/edit/${entry.id}`
      : `/dashboard/sale/detail/${entry.id}`;

/** The records behind a DRE line (issue 34): each opens the sale or the bill; all of them exported as CSV, XLSX or PDF. */
export function DreEntriesDialog({
  month,
  line,
  open,
  onClose,
}: {
  month: string;
  line: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const entries = useDreEntries(month, line);
  const [exportError, setExportError] = useState<string | null>(null);
  const query = { month, line: (line ?? 'grossRevenue') as DreDrillLine };
  const fileLine = (line ?? '').replace(':', '-');
  return (
    <Dialog open={open && line !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{entries.data?.label ?? 'Lançamentos'}</DialogTitle>
      <DialogContent>
        {entries.isPending ? (
          <Loading />
        ) : entries.isError ? (
          <LoadError
            what="Não foi possível carregar os lançamentos."
            error={entries.error}
            onRetry={() => entries.refetch()}
          />
        ) : entries.data.entries.length === 0 ? (
          <Typography color="text.secondary">Nenhum lançamento nesta linha no mês.</Typography>
        ) : (
          <>
            <ListTable label="Lançamentos" head={['Data', 'Lançamento', alignRight('Valor')]}>
              {entries.data.entries.map((entry) => {
                const to = linkOf(entry);
                return (
                  <TableRow
                    key={`${entry.kind}-${entry.id}-${entry.date}-${entry.description}-${entry.amountCents}`}
                  >
                    <TableCell>{entry.date ? formatDateBr(entry.date) : ''}</TableCell>
                    <TableCell>
                      {to ? (
                        <Link component={RouterLink} to={to}>
                          {entry.description}
                        </Link>
                      ) : (
                        entry.description
                      )}
                    </TableCell>
                    <TableCell align="right">{formatCents(entry.amountCents)}</TableCell>
                  </TableRow>
                );
              })}
            </ListTable>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {entries.data.count > DRE_ENTRIES_MAX
                ? `Mostrando ${DRE_ENTRIES_MAX} de ${entries.data.count} lançamentos. `
                : ''}
              Total da linha: {formatCents(entries.data.amountCents)}
              {entries.data.count > DRE_ENTRIES_MAX ? '. A exportação traz todos.' : ''}
            </Typography>
            {exportError && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {exportError}
              </Alert>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {line !== null && entries.data && entries.data.entries.length > 0 && (
          <ExportBar
            actions={[
              {
                kind: 'csv',
                label: 'Exportar CSV',
                start: (onProgress) =>
                  download(
                    financeApi.dreEntriesCsv,
                    { query },
                    `dre-${month}-${fileLine}.csv`,
                    undefined,
                    onProgress,
                  ),
              },
              {
                kind: 'xlsx',
                label: 'Exportar XLSX',
                busyLabel: 'Exportando...',
                start: (onProgress) =>
                  download(
                    financeApi.dreEntriesXlsx,
                    { query },
                    `dre-${month}-${fileLine}.xlsx`,
                    undefined,
                    onProgress,
                  ),
              },
              {
                kind: 'pdf',
                label: 'Baixar PDF',
                busyLabel: 'Gerando...',
                start: (onProgress) =>
                  download(
                    financeApi.dreEntriesPdf,
                    { query },
                    `dre-${month}-${fileLine}.pdf`,
                    undefined,
                    onProgress,
                  ),
              },
            ]}
            onError={(error) => setExportError(errorMessage(error))}
          />
        )}
        <Button onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
