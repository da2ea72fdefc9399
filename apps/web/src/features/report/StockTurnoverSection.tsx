import { reportApi } from '@balcao/core/endpoints/report';
import { formatCents } from '@balcao/core/money';
import {
  type StockTurnoverSection as Section,
  STOCK_TURNOVER_SECTION_LABELS,
  STOCK_TURNOVER_SECTIONS,
  type StockTurnover,
} from '@balcao/core/stockTurnover';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { download } from '../../lib/client.ts';
import { useStockTurnover } from './api.ts';
import { Change } from './Compared.tsx';
import { ExportBar } from './ExportBar.tsx';

const PRODUCTS_SHOWN = 50;
const decimal = (value: number | null, digits: number) =>
  value === null ? '-' : value.toFixed(digits).replace('.', ',');
const quantity = (value: number) => String(value).replace('.', ',');

/** Every product together against the period before: CMV, average stock, turnover, days of stock. */
function TurnoverSummary({ report }: { report: StockTurnover }) {
  const s = report.summary;
  const p = report.previous;
  const figure = (
    label: string,
    current: number | null,
    previous: number | null,
    text: (v: number | null) => string,
  ) => (
    <Typography variant="body2" component="li" key={label}>
      {label}: <strong>{text(current)}</strong> (antes {text(previous)}
      {current !== null && previous !== null && previous !== 0 ? (
        <>
          , <Change current={current} previous={previous} />
        </>
      ) : null}
      )
    </Typography>
  );
  const money = (v: number | null) => formatCents(v ?? 0);
  return (
    <Box
      component="ul"
      aria-label="Total do giro"
      sx={{ m: 0, pl: 0, listStyle: 'none', display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}
    >
      {figure('CMV', s.cogsCents, p.cogsCents, money)}
      {figure('Estoque médio', s.averageStockCents, p.averageStockCents, money)}
      {figure('Giro', s.turnover, p.turnover, (v) => decimal(v, 2))}
      {figure('Dias de estoque', s.daysOfStock, p.daysOfStock, (v) => decimal(v, 1))}
    </Box>
  );
}

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
  const name = `giro-de-estoque-${section}-${query.from}-${query.to}`;
  const exportQuery = { from: query.from, to: query.to, section };
  const head = [
    alignRight('Vendido'),
    alignRight('CMV'),
    alignRight('Estoque médio'),
    alignRight('Giro'),
    alignRight('Dias de estoque'),
    alignRight('Giro anterior'),
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
      <Box sx={{ mb: 1.5 }}>
        <ExportBar
          select={{
            label: 'Giro a exportar',
            value: section,
            options: STOCK_TURNOVER_SECTIONS,
            labels: STOCK_TURNOVER_SECTION_LABELS,
            onChange: setSection,
          }}
          actions={[
            {
              kind: 'csv',
              label: 'Exportar giro (CSV)',
              busyLabel: 'Exportando...',
              start: (onProgress) =>
                download(
                  reportApi.stockTurnoverCsv,
                  { query: exportQuery },
                  `${name}.csv`,
                  undefined,
                  onProgress,
                ),
            },
            {
              kind: 'xlsx',
              label: 'Exportar giro (XLSX)',
              busyLabel: 'Exportando...',
              start: (onProgress) =>
                download(
                  reportApi.stockTurnoverXlsx,
                  { query: exportQuery },
                  `${name}.xlsx`,
                  undefined,
                  onProgress,
                ),
            },
            {
              kind: 'pdf',
              label: 'Baixar giro (PDF)',
              busyLabel: 'Gerando...',
              start: (onProgress) =>
                download(
                  reportApi.stockTurnoverPdf,
                  { query: { from: query.from, to: query.to } },
                  `giro-de-estoque-${query.from}-${query.to}.pdf`,
                  undefined,
                  onProgress,
                ),
            },
          ]}
          onError={onError}
        />
      </Box>
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
          <TurnoverSummary report={turnover.data} />
          <ListTable label="Giro de estoque por categoria" head={['Categoria', ...head]}>
            {turnover.data.categories.map((c) => (
              <TableRow key={c.categoryName ?? 'none'}>
                <TableCell>{c.categoryName ?? 'Sem categoria'}</TableCell>
                <TableCell align="right">{quantity(c.soldQuantity)}</TableCell>
                <TableCell align="right">{formatCents(c.cogsCents)}</TableCell>
                <TableCell align="right">{formatCents(c.averageStockCents)}</TableCell>
                <TableCell align="right">{decimal(c.turnover, 2)}</TableCell>
                <TableCell align="right">{decimal(c.daysOfStock, 1)}</TableCell>
                <TableCell align="right">{decimal(c.previousTurnover, 2)}</TableCell>
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
                <TableCell align="right">{decimal(p.previousTurnover, 2)}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Stack>
      )}
    </Box>
  );
}
