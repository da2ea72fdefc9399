import { formatCents } from '@balcao/core/money';
import {
  formatQuantity,
  PRODUCT_TYPE_LABELS,
  type ProductListItem,
  productCountText,
} from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import ImageIcon from '@mui/icons-material/Image';
import UploadIcon from '@mui/icons-material/Upload';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Loading } from '../../components/Loading.tsx';
import {
  ActiveChip,
  ActiveFilter,
  ExportButton,
  ListFilters,
  ListHeader,
  ListQuery,
  ListTable,
  RowActions,
  recordOptions,
  SearchField,
  SelectFilter,
  SortHeader,
} from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useNamedOptions } from '../product-category/index.ts';
import { downloadExport, type ProductListParams, useDeleteProduct, useProducts } from './api.ts';
import { ImportDialog } from './components/ImportDialog.tsx';

const PAGE_SIZES = [10, 20, 50, 100];
const SORTS = ['name', '-name', 'salePriceCents', '-salePriceCents', 'stock', '-stock'] as const;

function queryFromParams(params: URLSearchParams) {
  const q = readParam.text(params, 'q');
  return {
    q,
    // A search without a chosen column is ranked: names that start with it first (the API's relevance).
    sort: readParam.oneOf(params, 'sort', SORTS) ?? (q ? undefined : 'name'),
    categoryId: readParam.id(params, 'categoryId'),
    brandId: readParam.id(params, 'brandId'),
    active: readParam.flag(params, 'active'),
    lowStock: readParam.flag(params, 'lowStock') || undefined,
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES, 20),
  } satisfies ProductListParams;
}

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Products: search by name, SKU or barcode; filters; sort; server-side pages; CSV import and export. */
export default function ProductListPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.catalog);
  const categories = useNamedOptions('product-category', clientId);
  const brands = useNamedOptions('product-brand', clientId);

  const { query, update, toggleSort, search, setSearch, pagination } = useListParams(queryFromParams);
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const list = useProducts(clientId, query);
  const deletion = useDeleteProduct();
  const [importing, setImporting] = useState(false);
  const { state, show, close } = useFeedback();
  const removal = useConfirmDelete<ProductListItem>({
    title: (p) => (p ? `Excluir o produto "${p.name}"?` : ''),
    message: () => 'O produto, suas variações e imagens serão excluídos. Esta ação não pode ser desfeita.',
    remove: (p, callbacks) => deletion.mutate({ params: { id: p.id } }, callbacks),
    feedback: { show, done: () => 'Produto excluído', failed: 'Não foi possível excluir' },
  });

  const sortHeader = (field: string, label: string, align?: 'right') => (
    <SortHeader field={field} label={label} sort={query.sort} onSort={toggleSort} align={align} />
  );

  const content = (
    <ListQuery
      query={list}
      empty={
        <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
          Nenhum produto foi encontrado
        </Typography>
      }
    >
      {(data) => (
        <>
          <Box sx={{ height: 4 }}>{list.isFetching && <LinearProgress aria-label="Atualizando" />}</Box>
          {query.q && (
            <Typography variant="body2" color="text.secondary" sx={{ py: 1 }} data-testid="product-count">
              {productCountText(data)}
            </Typography>
          )}
          <ListTable
            label="Produtos"
            head={
              <>
                <TableCell sx={{ width: 56, position: 'relative' }}>
                  <Box component="span" sx={VISUALLY_HIDDEN}>
                    Imagem
                  </Box>
                </TableCell>
                {sortHeader('name', 'Produto')}
                <TableCell>Código de barras</TableCell>
                <TableCell>Categoria</TableCell>
                {sortHeader('salePriceCents', 'Preço', 'right')}
                {sortHeader('stock', 'Estoque', 'right')}
                <TableCell>Status</TableCell>
                <TableCell align="right">Ações</TableCell>
              </>
            }
            pagination={{
              ...pagination({ ...query, total: data.total }, PAGE_SIZES),
              capped: data.totalCapped,
            }}
          >
            {data.items.map((p) => (
              <TableRow
                key={p.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(`/dashboard/product/edit/${p.id}`)}
                data-testid="product-row"
              >
                <TableCell>
                  <Avatar
                    variant="rounded"
                    src={p.coverThumbUrl ?? undefined}
                    alt=""
                    sx={{ width: 40, height: 40 }}
                  >
                    <ImageIcon fontSize="small" />
                  </Avatar>
                </TableCell>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {p.name}
                  </Typography>
                  <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
                    {p.sku && (
                      <Typography variant="caption" color="text.secondary">
                        SKU {p.sku}
                      </Typography>
                    )}
                    {p.productType !== 'simple' && (
                      <Chip
                        size="small"
                        variant="outlined"
                        label={
                          p.productType === 'variants'
                            ? `${p.variantCount} ${p.variantCount === 1 ? 'variação' : 'variações'}`
                            : PRODUCT_TYPE_LABELS[p.productType]
                        }
                      />
                    )}
                  </Stack>
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{p.barcode ?? '—'}</TableCell>
                <TableCell>{p.category?.name ?? '—'}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatCents(p.salePriceCents)}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {p.stockControl ? (
                    <Typography variant="body2" color={p.isLowStock ? 'error' : undefined} component="span">
                      {formatQuantity(p.stock, p.unit)}
                      {p.isLowStock && ' (baixo)'}
                    </Typography>
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell>
                  <ActiveChip active={p.active} />
                </TableCell>
                <RowActions
                  editTo={`/dashboard/product/edit/${p.id}`}
                  name={p.name}
                  canEdit={canWrite}
                  onDelete={canWrite ? () => removal.ask(p) : undefined}
                />
              </TableRow>
            ))}
          </ListTable>
        </>
      )}
    </ListQuery>
  );

  return (
    <Box>
      <ListHeader
        title="Produtos"
        add={canWrite ? { to: '/dashboard/product/new', label: 'Adicionar produto' } : undefined}
      >
        {canWrite && (
          <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            Importar CSV
          </Button>
        )}
        <ExportButton
          variant="outlined"
          download={() => downloadExport(clientId!, filters)}
          onError={(error) =>
            show({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) })
          }
          disabled={!clientId}
        />
      </ListHeader>
      <Paper sx={{ p: 2 }}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            mb: 2,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '2fr 1fr 1fr 1fr auto' },
            alignItems: 'center',
          }}
        >
          <SearchField value={search} onChange={setSearch} placeholder="Nome, SKU ou código de barras" />
          <ListFilters
            active={
              [query.categoryId, query.brandId, query.active, query.lowStock].filter((v) => v !== undefined)
                .length
            }
          >
            <SelectFilter
              label="Categoria"
              size="small"
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
              value={query.categoryId}
              options={recordOptions(categories.data)}
              onChange={(categoryId) => update({ categoryId })}
              allLabel="Todas"
            />
            <SelectFilter
              label="Marca"
              size="small"
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
              value={query.brandId}
              options={recordOptions(brands.data)}
              onChange={(brandId) => update({ brandId })}
              allLabel="Todas"
            />
            <ActiveFilter value={query.active} onChange={(active) => update({ active })} />
            <FormControlLabel
              label="Estoque baixo"
              control={
                <Switch
                  checked={Boolean(query.lowStock)}
                  onChange={(e) => update({ lowStock: e.target.checked ? 'true' : undefined })}
                />
              }
            />
          </ListFilters>
        </Box>
        {deletion.isPending ? <Loading text="Excluindo..." /> : content}
      </Paper>
      {importing && (
        <ImportDialog open onClose={() => setImporting(false)} onImported={() => list.refetch()} />
      )}
      {removal.dialog}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
