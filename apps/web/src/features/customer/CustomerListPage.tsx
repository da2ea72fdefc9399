import type { CustomerListItem, CustomerListQuery } from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
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
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { ListPagination } from '../../components/ListPagination.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ActiveFilter, RowActions, SearchField, useHandedOverMessage } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/session.tsx';
import { type CustomerFilters, downloadCustomersCsv, useCustomers, useDeleteCustomer } from './api.ts';
import { DelinquencyBadge, WhatsappBadge } from './CustomerBadges.tsx';
import { CustomerImportDialog } from './CustomerImportDialog.tsx';

const PAGE_SIZES = [20, 50, 100];

/** Reads the list state from the URL (back/forward and shared links keep search, filters and page). */
function queryFromParams(params: URLSearchParams): CustomerListQuery {
  return {
    q: readParam.text(params, 'q'),
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES),
    delinquent: readParam.oneOf(params, 'delinquent', ['true', 'false'] as const),
    whatsappValid: readParam.oneOf(params, 'whatsappValid', ['true', 'false', 'unknown'] as const),
    active: readParam.oneOf(params, 'active', ['true', 'false'] as const),
  } as CustomerListQuery;
}

/** Customer list: search, filters (delinquent, WhatsApp, active), badges, pages, CSV import and export. */
export default function CustomerListPage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.customers);
  const { query, update, search, setSearch, setPage, setPageSize } = useListParams(queryFromParams);
  const customers = useCustomers(clientId, query);
  const deletion = useDeleteCustomer();
  const { state: feedback, show, close } = useFeedback();
  const [toDelete, setToDelete] = useState<CustomerListItem | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  // A message handed over by the form after a create ("Cliente cadastrado com sucesso").
  useHandedOverMessage(show);

  const filters: CustomerFilters = {
    q: query.q,
    delinquent: query.delinquent,
    whatsappValid: query.whatsappValid,
    active: query.active,
  };

  const onExport = async () => {
    if (!clientId) return;
    setExporting(true);
    try {
      await downloadCustomersCsv(clientId, filters);
    } catch (error) {
      show({ severity: 'error', title: 'Erro ao exportar clientes', message: errorMessage(error) });
    } finally {
      setExporting(false);
    }
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    const { id, name } = toDelete;
    setToDelete(null);
    deletion.mutate(id, {
      onSuccess: () => show({ severity: 'success', title: `Cliente ${name} excluído` }),
      onError: (error) =>
        show({ severity: 'error', title: 'Erro ao excluir cliente', message: errorMessage(error) }),
    });
  };

  let content: ReactNode;
  if (customers.isPending) content = <Loading />;
  else if (customers.isError)
    content = (
      <LoadError
        what="Não foi possível carregar os clientes."
        error={customers.error}
        onRetry={() => customers.refetch()}
      />
    );
  else if (customers.data.items.length === 0)
    content = (
      <Paper sx={{ p: 4, textAlign: 'center' }}>
        <Typography>Nenhum cliente foi encontrado</Typography>
        {canWrite && !query.q && (
          <Button component={RouterLink} to="/dashboard/customer/new" startIcon={<AddIcon />} sx={{ mt: 2 }}>
            Cadastrar cliente
          </Button>
        )}
      </Paper>
    );
  else {
    const { items, total, page, pageSize } = customers.data;
    content = (
      <Paper>
        <TableContainer>
          <Table size="small" aria-label="Clientes">
            <TableHead>
              <TableRow>
                <TableCell>Nome</TableCell>
                <TableCell>CPF/CNPJ</TableCell>
                <TableCell>WhatsApp</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Cidade</TableCell>
                <TableCell>Situação</TableCell>
                <TableCell align="right">Ações</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((c) => (
                <TableRow key={c.id} hover data-testid="customer-row">
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Typography
                        component={RouterLink}
                        to={`/dashboard/customer/edit/${c.id}`}
                        sx={{ color: 'inherit', fontWeight: 500 }}
                      >
                        {c.name}
                      </Typography>
                      {!c.active && <Chip size="small" label="Inativo" />}
                    </Stack>
                    {c.creditLimitCents > 0 && (
                      <Typography variant="caption" color="text.secondary">
                        Crediário: {formatCents(c.creditLimitCents)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {c.document ? maskDocument(c.document) : '—'}
                  </TableCell>
                  <TableCell>
                    {c.phone ? (
                      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
                        <span style={{ whiteSpace: 'nowrap' }}>{maskPhone(c.phone)}</span>
                        <WhatsappBadge valid={c.whatsappValid} hasPhone />
                      </Stack>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                    {c.defaultAddress ? `${c.defaultAddress.city}/${c.defaultAddress.state}` : '—'}
                  </TableCell>
                  <TableCell>
                    <DelinquencyBadge isDelinquent={c.isDelinquent} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editTo={`/dashboard/customer/edit/${c.id}`}
                      name={c.name}
                      canEdit={canWrite}
                      onDelete={canWrite ? () => setToDelete(c) : undefined}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <ListPagination
          total={total}
          page={page}
          pageSize={pageSize}
          sizes={PAGE_SIZES}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      </Paper>
    );
  }

  return (
    // Room at the bottom so the floating add button does not cover the last row's actions.
    <Box sx={{ pb: 8 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography component="h1" variant="h5">
          Clientes
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          <Button startIcon={<DownloadIcon />} onClick={onExport} disabled={exporting || !clientId}>
            {exporting ? 'Exportando...' : 'Exportar CSV'}
          </Button>
          {canWrite && (
            <>
              <Button startIcon={<UploadIcon />} onClick={() => setImportOpen(true)}>
                Importar CSV
              </Button>
              <Button
                variant="contained"
                component={RouterLink}
                to="/dashboard/customer/new"
                startIcon={<AddIcon />}
              >
                Novo cliente
              </Button>
            </>
          )}
        </Stack>
      </Stack>

      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField
          value={search}
          onChange={setSearch}
          placeholder="Nome, CPF/CNPJ, telefone ou email"
          sx={{ flex: 1, minWidth: 220 }}
        />
        <TextField
          select
          label="Situação"
          size="small"
          value={query.delinquent ?? ''}
          onChange={(e) => update({ delinquent: e.target.value || undefined })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">Todas</MenuItem>
          <MenuItem value="true">Inadimplentes</MenuItem>
          <MenuItem value="false">Em dia</MenuItem>
        </TextField>
        <TextField
          select
          label="WhatsApp"
          size="small"
          value={query.whatsappValid ?? ''}
          onChange={(e) => update({ whatsappValid: e.target.value || undefined })}
          sx={{ minWidth: 170 }}
        >
          <MenuItem value="">Todos</MenuItem>
          <MenuItem value="true">Válido</MenuItem>
          <MenuItem value="false">Inválido</MenuItem>
          <MenuItem value="unknown">Não verificado</MenuItem>
        </TextField>
        <ActiveFilter value={query.active} onChange={(active) => update({ active })} sx={{ minWidth: 140 }} />
      </Stack>

      {content}

      <ConfirmDialog
        open={Boolean(toDelete)}
        title="Excluir cliente"
        message={`Excluir ${toDelete?.name ?? ''}? Os endereços dele também serão excluídos.`}
        confirmLabel="Excluir"
        destructive
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
      {clientId && (
        <CustomerImportDialog
          open={importOpen}
          clientId={clientId}
          onClose={() => setImportOpen(false)}
          onImported={(created) =>
            show({ severity: 'success', title: `${created} cliente(s) importado(s) com sucesso` })
          }
        />
      )}
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}
