import { maskDocument } from '@balcao/core/document';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  ListHeader,
  ListQuery,
  ListTable,
  SearchField,
  useHandedOverMessage,
} from '../../components/listPage.tsx';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useSuppliers } from './api.ts';

function queryFromParams(params: URLSearchParams) {
  return { q: readParam.text(params, 'q') };
}

/** Fornecedores (issue 34): who the shop's payables are owed to. */
export default function SupplierListPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.finance);
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);
  const { query, search, setSearch } = useListParams(queryFromParams);
  const suppliers = useSuppliers(query.q);
  return (
    <Box>
      <ListHeader
        title="Fornecedores"
        add={canWrite ? { to: '/dashboard/supplier/new', label: 'Novo fornecedor' } : undefined}
      />
      <SearchField
        value={search}
        onChange={setSearch}
        placeholder="Nome ou CPF/CNPJ"
        sx={{ mb: 2, width: '100%' }}
      />
      <ListQuery
        query={suppliers}
        what="Não foi possível carregar os fornecedores."
        empty={
          <Paper sx={{ p: 6, textAlign: 'center' }}>
            <Typography>Nenhum fornecedor cadastrado</Typography>
          </Paper>
        }
      >
        {(data) => (
          <ListTable label="Fornecedores" head={['Nome', 'CPF/CNPJ', 'Contato', 'Chave Pix', '']}>
            {data.items.map((s) => (
              <TableRow key={s.id} hover>
                <TableCell>{s.name}</TableCell>
                <TableCell>{s.document ? maskDocument(s.document) : '—'}</TableCell>
                <TableCell>{[s.contactName, s.phone, s.email].filter(Boolean).join(' · ') || '—'}</TableCell>
                <TableCell>{s.pixKey ?? '—'}</TableCell>
                <TableCell align="right">
                  <Button size="small" component={RouterLink} to={`/dashboard/supplier/edit/${s.id}`}>
                    Abrir
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </ListQuery>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
