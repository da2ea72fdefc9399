import type { CashRegister } from '@balcao/core/cashRegister';
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
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { apiFetch, errorMessage } from '../../lib/api.ts';
import { cashRegisterKeys, useRegisterReport } from './api.ts';
import { DIALOG_REPORT_PRINT_CSS, RegisterReport } from './RegisterReport.tsx';

const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'short',
});

type Page = { items: CashRegister[]; total: number; page: number; pageSize: number };

/**
 * Registers of the client, newest first, each with its report (reprint a closing). Administrador,
 * Gerente and Financeiro see everybody's; the others their own (the API decides).
 */
export function RegisterHistory({ clientId }: { clientId: number }) {
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | undefined>();
  const list = useQuery({
    queryKey: [...cashRegisterKeys.all, 'list', clientId, page],
    queryFn: () => apiFetch<Page>(`/cash-register/client/${clientId}?page=${page}&pageSize=10`),
    placeholderData: keepPreviousData,
  });
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
          <Table size="small" aria-label="Caixas anteriores">
            <TableHead>
              <TableRow>
                <TableCell>Operador</TableCell>
                <TableCell>Aberto em</TableCell>
                <TableCell>Fechado em</TableCell>
                <TableCell>Situação</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{r.user.name}</TableCell>
                  <TableCell>{dateTime.format(new Date(r.openedAt))}</TableCell>
                  <TableCell>{r.closedAt ? dateTime.format(new Date(r.closedAt)) : '—'}</TableCell>
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
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={list.data.total}
            page={page - 1}
            rowsPerPage={10}
            rowsPerPageOptions={[10]}
            labelDisplayedRows={({ from, to, count }) => `${from}–${to} de ${count}`}
            onPageChange={(_, p) => setPage(p + 1)}
          />
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
