import PrintIcon from '@mui/icons-material/Print';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useRegisterHistory, useRegisterReport } from './api.ts';
import { DIALOG_REPORT_PRINT_CSS, RegisterReport } from './RegisterReport.tsx';

const PAGE_SIZES = [10, 20, 50];

function queryFromParams(params: URLSearchParams) {
  return { page: readParam.page(params), pageSize: readParam.pageSize(params, PAGE_SIZES) };
}

/**
 * Registers of the client, newest first, each with its report (reprint a closing). Administrador,
 * Gerente and Financeiro see everybody's; the others their own (the API decides).
 */
export function RegisterHistory({ clientId }: { clientId: number }) {
  const { query, pagination } = useListParams(queryFromParams);
  const [openId, setOpenId] = useState<number | undefined>();
  const list = useRegisterHistory(clientId, query.page, query.pageSize);
  const report = useRegisterReport(openId);

  return (
    <Box>
      <Typography component="h2" variant="h6" sx={{ mt: 4, mb: 1 }}>
        Caixas anteriores
      </Typography>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <Alert severity="error">{errorMessage(list.error)}</Alert>
      ) : list.data.items.length === 0 ? (
        <Typography color="text.secondary">Nenhum caixa registrado.</Typography>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <ListTable
            label="Caixas anteriores"
            head={['Operador', 'Aberto em', 'Fechado em', 'Situação', '']}
            pagination={pagination({ ...query, total: list.data.total }, PAGE_SIZES)}
          >
            {list.data.items.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.user.name}</TableCell>
                <TableCell>{formatDateTime(r.openedAt)}</TableCell>
                <TableCell>{r.closedAt ? formatDateTime(r.closedAt) : '—'}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={r.status === 'open' ? 'success' : 'default'}
                    label={r.status === 'open' ? 'Aberto' : 'Fechado'}
                  />
                </TableCell>
                <TableCell align="right">
                  <Button size="small" onClick={() => setOpenId(r.id)}>
                    Ver relatório
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
      <Dialog open={openId !== undefined} onClose={() => setOpenId(undefined)} maxWidth="md" fullWidth>
        <DialogTitle>Relatório do caixa</DialogTitle>
        <DialogContent>
          <style>{DIALOG_REPORT_PRINT_CSS}</style>
          {report.isPending ? (
            <Loading />
          ) : report.isError ? (
            <Alert severity="error">{errorMessage(report.error)}</Alert>
          ) : (
            <RegisterReport summary={report.data} className="register-report-dialog" />
          )}
        </DialogContent>
        <DialogActions>
          <Button startIcon={<PrintIcon />} onClick={() => window.print()} disabled={!report.data}>
            Imprimir
          </Button>
          <Button onClick={() => setOpenId(undefined)}>Fechar</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
