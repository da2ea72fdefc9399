import type { CustomerListItem, CustomerListQuery } from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import UploadIcon from '@mui/icons-material/Upload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  ActiveFilter,
  ExportButton,
  ListFilters,
  ListHeader,
  ListQuery,
  ListTable,
  RowActions,
  SearchField,
  SelectFilter,
  useHandedOverMessage,
} from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import {
  type CustomerFilters,
  downloadCustomersCsv,
  useCustomers,
  useCustomerTags,
  useDeleteCustomer,
} from './api.ts';
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
    tag: readParam.text(params, 'tag'),
  } as CustomerListQuery;
}

/** Customer list: search, filters (delinquent, WhatsApp, active), badges, pages, CSV import and export. */
export default function CustomerListPage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.customers);
  const { query, update, search, setSearch, pagination } = useListParams(queryFromParams);
  const customers = useCustomers(clientId, query);
  const deletion = useDeleteCustomer();
  const { state: feedback, show, close } = useFeedback();
  const removal = useConfirmDelete<CustomerListItem>({
    title: () => 'Excluir cliente',
    message: (c) => `Excluir ${c?.name ?? ''}? Os endereços dele também serão excluídos.`,
    remove: (c, callbacks) => deletion.mutate({ params: { id: c.id } }, callbacks),
    feedback: { show, done: (c) => `Cliente ${c.name} excluído`, failed: 'Erro ao excluir cliente' },
  });
  const [importOpen, setImportOpen] = useState(false);
  // A message handed over by the form after a create ("Cliente cadastrado com sucesso").
  useHandedOverMessage(show);

  const filters: CustomerFilters = {
    q: query.q,
    delinquent: query.delinquent,
    whatsappValid: query.whatsappValid,
    active: query.active,
    tag: query.tag,
  };
  const tags = useCustomerTags(clientId);

  const content = (
    <ListQuery
      query={customers}
      what="Não foi possível carregar os clientes."
      empty={
        <Paper sx={{ p: 4, textAlign: 'center' }}>
          <Typography>Nenhum cliente foi encontrado</Typography>
          {canWrite && !query.q && (
            <Button
              component={RouterLink}
              to="/dashboard/customer/new"
              startIcon={<AddIcon />}
              sx={{ mt: 2 }}
            >
              Cadastrar cliente
            </Button>
          )}
        </Paper>
      }
    >
      {(data) => (
        <Paper>
          <ListTable
            label="Clientes"
            head={
              <>
                <TableCell>Nome</TableCell>
                <TableCell>CPF/CNPJ</TableCell>
                <TableCell>WhatsApp</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Cidade</TableCell>
                <TableCell>Situação</TableCell>
                <TableCell align="right">Ações</TableCell>
              </>
            }
            pagination={pagination(data, PAGE_SIZES)}
          >
            {data.items.map((c) => (
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
                  {c.tags.length > 0 && (
                    <Stack
                      direction="row"
                      sx={{ gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}
                      aria-label="Etiquetas"
                    >
                      {c.tags.map((tag) => (
                        <Chip key={tag} size="small" variant="outlined" label={tag} />
                      ))}
                    </Stack>
                  )}
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
                <RowActions
                  editTo={`/dashboard/customer/edit/${c.id}`}
                  name={c.name}
                  canEdit={canWrite}
                  onDelete={canWrite ? () => removal.ask(c) : undefined}
                />
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
    </ListQuery>
  );

  return (
    // Room at the bottom so the floating add button does not cover the last row's actions.
    <Box sx={{ pb: 8 }}>
      <ListHeader
        title="Clientes"
        add={canWrite ? { to: '/dashboard/customer/new', label: 'Novo cliente' } : undefined}
      >
        <ExportButton
          download={() => downloadCustomersCsv(clientId!, filters)}
          onError={(error) =>
            show({ severity: 'error', title: 'Erro ao exportar clientes', message: errorMessage(error) })
          }
          disabled={!clientId}
        />
        {canWrite && (
          <Button startIcon={<UploadIcon />} onClick={() => setImportOpen(true)}>
            Importar CSV
          </Button>
        )}
      </ListHeader>

      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField
          value={search}
          onChange={setSearch}
          placeholder="Nome, CPF/CNPJ, telefone ou email"
          sx={{ flex: 1, minWidth: 220 }}
        />
        <ListFilters
          active={
            [query.delinquent, query.whatsappValid, query.active, query.tag].filter((v) => v !== undefined)
              .length
          }
        >
          <SelectFilter
            label="Etiqueta"
            size="small"
            value={query.tag}
            options={[
              // A tag from a link that no customer carries any more still shows as chosen.
              ...(query.tag && !(tags.data ?? []).some((t) => t.tag === query.tag)
                ? [{ value: query.tag, label: query.tag }]
                : []),
              ...(tags.data ?? []).map((t) => ({ value: t.tag, label: `${t.tag} (${t.count})` })),
            ]}
            onChange={(tag) => update({ tag })}
            sx={{ minWidth: 160 }}
            allLabel="Todas"
          />
          <SelectFilter
            label="Situação"
            size="small"
            value={query.delinquent}
            options={[
              { value: 'true', label: 'Inadimplentes' },
              { value: 'false', label: 'Em dia' },
            ]}
            onChange={(delinquent) => update({ delinquent })}
            sx={{ minWidth: 160 }}
            allLabel="Todas"
          />
          <SelectFilter
            label="WhatsApp"
            size="small"
            value={query.whatsappValid}
            options={[
              { value: 'true', label: 'Válido' },
              { value: 'false', label: 'Inválido' },
              { value: 'unknown', label: 'Não verificado' },
            ]}
            onChange={(whatsappValid) => update({ whatsappValid })}
            sx={{ minWidth: 170 }}
          />
          <ActiveFilter
            value={query.active}
            onChange={(active) => update({ active })}
            sx={{ minWidth: 140 }}
          />
        </ListFilters>
      </Stack>

      {content}

      {removal.dialog}
      {clientId && (
        <CustomerImportDialog
          open={importOpen}
          clientId={clientId}
          onClose={() => setImportOpen(false)}
          onImported={(created) =>
            show({
              severity: 'success',
              title: `${plural(created, 'cliente importado', 'clientes importados')} com sucesso`,
            })
          }
        />
      )}
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}
