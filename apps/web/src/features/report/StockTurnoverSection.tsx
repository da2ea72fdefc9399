import { reportApi } from '@balcao/core/endpoints/report';
import { formatCents } from '@balcao/core/money';
import {
  type StockTurnoverSection as Section,
  STOCK_TURNOVER_SECTION_LABELS,
  STOCK_TURNOVER_SECTIONS,
} from '@balcao/core/stockTurnover';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { download } from '../../lib/client.ts';
import { useStockTurnover } from './api.ts';

const PRODUCTS_SHOWN = 50;
const decimal = (value: number | null, digits: number) =>
  value === null ? '-' : value.toFixed(digits).replace('.', ',');
const quantity = (value: number) => String(value).replace('.', ',');

/**
 * Giro de estoque (issue 34): per category and per product, the period's CMV over the average stock
 * value and the days the closing stock lasts at the period's pace; each table exported whole.
 */
export function StockTurnoverSection({
  query,
  onError,
}: {
  query: { from: string; to: string };
  onError: (error: unknown) => void;
}) {
  const turnover = useStockTurnover(query);
  const [section, setSection] = useState<Section>('product');
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const name = `giro-de-estoque-${section}-${query.from}-${query.to}`;
  const exportQuery = { from: query.from, to: query.to, section };
  const run = async (kind: 'csv' | 'xlsx', work: () => Promise<unknown>) => {
    setBusy(kind);
    try {
      await work();
    } catch (error) {
      onError(error);
    } finally {
      setBusy(null);
    }
  };
  const head = [
    alignRight('Vendido'),
    alignRight('CMV'),
    alignRight('Estoque médio'),
    alignRight('Giro'),
    alignRight('Dias de estoque'),
  ];
  return (
    <Box component="section" aria-label="Giro de estoque">
      <Typography component="h2" variant="h6">
        Giro de estoque
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Giro = custo das mercadorias vendidas (CMV) no período ÷ valor médio do estoque. Dias de estoque =
        estoque final ÷ média vendida por dia.
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 1.5, alignItems: { sm: 'center' } }}
      >
        <TextField
          select
          size="small"
          label="Giro a exportar"
          value={section}
          onChange={(e) => setSection(e.target.value as Section)}
          sx={{ minWidth: 240 }}
        >
          {STOCK_TURNOVER_SECTIONS.map((s) => (
            <MenuItem key={s} value={s}>
              {STOCK_TURNOVER_SECTION_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={busy !== null}
          onClick={() =>
            run('csv', () => download(reportApi.stockTurnoverCsv, { query: exportQuery }, `${name}.csv`))
          }
        >
          {busy === 'csv' ? 'Exportando...' : 'Exportar giro (CSV)'}
        </Button>
        <Button
          variant="outlined"
          disabled={busy !== null}
          onClick={() =>
            run('xlsx', () => download(reportApi.stockTurnoverXlsx, { query: exportQuery }, `${name}.xlsx`))
          }
        >
          {busy === 'xlsx' ? 'Exportando...' : 'Exportar giro (XLSX)'}
        </Button>
      </Stack>
      {turnover.isPending ? (
        <Loading />
      ) : turnover.isError ? (
        <LoadError
          what="Não foi possível carregar o giro de estoque."
          error={turnover.error}
          onRetry={() => turnover.refetch()}
        />
      ) : turnover.data.products.length === 0 ? (
        <Typography>Nenhum produto com estoque ou venda no período.</Typography>
      ) : (
        <Stack spacing={2}>
          <ListTable label="Giro de estoque por categoria" head={['Categoria', ...head]}>
            {turnover.data.categories.map((c) => (
              <TableRow key={c.categoryName ?? 'none'}>
                <TableCell>{c.categoryName ?? 'Sem categoria'}</TableCell>
                <TableCell align="right">{quantity(c.soldQuantity)}</TableCell>
                <TableCell align="right">{formatCents(c.cogsCents)}</TableCell>
                <TableCell align="right">{formatCents(c.averageStockCents)}</TableCell>
                <TableCell align="right">{decimal(c.turnover, 2)}</TableCell>
                <TableCell align="right">{decimal(c.daysOfStock, 1)}</TableCell>
              </TableRow>
            ))}
          </ListTable>
          {turnover.data.products.length > PRODUCTS_SHOWN && (
            <Typography variant="body2" color="text.secondary">
              {`Mostrando os ${PRODUCTS_SHOWN} produtos de maior CMV de ${turnover.data.products.length}; exporte para ver todos.`}
            </Typography>
          )}
          <ListTable label="Giro de estoque por produto" head={['Produto', ...head]}>
            {turnover.data.products.slice(0, PRODUCTS_SHOWN).map((p) => (
              <TableRow key={p.productId}>
                <TableCell>
                  {p.name}
                  {p.categoryName ? (
                    <Typography variant="caption" color="text.secondary" component="span">
                      {' '}
                      · {p.categoryName}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">{quantity(p.soldQuantity)}</TableCell>
                <TableCell align="right">{formatCents(p.cogsCents)}</TableCell>
                <TableCell align="right">{formatCents(p.averageStockCents)}</TableCell>
                <TableCell align="right">{decimal(p.turnover, 2)}</TableCell>
                <TableCell align="right">{decimal(p.daysOfStock, 1)}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Stack>
      )}
    </Box>
  );
}
