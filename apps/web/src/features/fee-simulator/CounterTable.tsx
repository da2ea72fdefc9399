import { formatDateBr } from '@balcao/core/date';
import { counterPrice, upToLabel } from '@balcao/core/fees';
import { formatCents } from '@balcao/core/money';
import type { ProductListItem } from '@balcao/core/product';
import PrintIcon from '@mui/icons-material/Print';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import GlobalStyles from '@mui/material/GlobalStyles';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { shopToday } from '../../lib/format.ts';
import { useProducts } from '../product/index.ts';
import { useNamedOptions } from '../product-category/index.ts';
import { ProductPicker } from '../stock/index.ts';
import { type FeeSource, sourceDateLine } from './sources.ts';

const PRINT_ID = 'counter-table';

/** On paper only the counter table shows, across the page. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        'body *': { visibility: 'hidden' },
        [`#${PRINT_ID}, #${PRINT_ID} *`]: { visibility: 'visible' },
        [`#${PRINT_ID}`]: { position: 'absolute', left: 0, top: 0, width: '100%', background: '#fff' },
        // Paper is white whatever the screen's theme: black text, grey rules.
        [`#${PRINT_ID} *`]: { color: '#000 !important', borderColor: '#bbb !important' },
        [`#${PRINT_ID} .no-print`]: { display: 'none' },
        '@page': { size: 'landscape', margin: '10mm' },
      },
    }}
  />
);

/**
 * The counter table "em até Nx": for picked products or a category, the installment value in each
 * count so the shop nets the product's price (X / (1 - r) split in n), printable.
 */
export function CounterTable({
  clientId,
  sources,
  defaultSourceId,
}: {
  clientId: number | undefined;
  sources: FeeSource[];
  defaultSourceId: string;
}) {
  const [sourceId, setSourceId] = useState(defaultSourceId);
  const source = sources.find((s) => s.id === sourceId) ?? sources[0];
  const max = source.rates.creditRates.length;
  const [upTo, setUpTo] = useState(Math.min(12, max));
  const count = Math.min(upTo, max);
  const [by, setBy] = useState<'category' | 'products'>('category');
  const [categoryId, setCategoryId] = useState<number | ''>('');
  const [picked, setPicked] = useState<ProductListItem[]>([]);
  const categories = useNamedOptions('product-category', clientId);
  const inCategory = useProducts(by === 'category' && categoryId !== '' ? clientId : undefined, {
    page: 1,
    pageSize: 100,
    sort: 'name',
    active: true,
    categoryId: categoryId === '' ? undefined : categoryId,
  });
  const products = by === 'category' ? (categoryId === '' ? [] : (inCategory.data?.items ?? [])) : picked;
  const categoryName = categories.data?.find((c) => c.id === categoryId)?.name;
  const counts = Array.from({ length: count }, (_, i) => i + 1);

  return (
    <Paper
      component="section"
      aria-labelledby="counter-title"
      sx={{ p: 2, display: 'grid', gap: 2, minWidth: 0 }}
    >
      {printStyles}
      <Typography id="counter-title" variant="h6" component="h2">
        Tabela de balcão
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField
          select
          label="Tabela de taxas"
          value={source.id}
          onChange={(e) => setSourceId(e.target.value)}
          sx={{ minWidth: 260 }}
        >
          {sources.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Parcelar em até"
          value={count}
          onChange={(e) => setUpTo(Number(e.target.value))}
          sx={{ minWidth: 150 }}
        >
          {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
            <MenuItem key={n} value={n}>
              {n}x
            </MenuItem>
          ))}
        </TextField>
        <ToggleButtonGroup
          exclusive
          value={by}
          onChange={(_e, v) => v && setBy(v)}
          aria-label="Produtos da tabela"
          sx={{ height: 56 }}
        >
          <ToggleButton value="category">Categoria</ToggleButton>
          <ToggleButton value="products">Produtos</ToggleButton>
        </ToggleButtonGroup>
        {by === 'category' ? (
          <TextField
            select
            label="Categoria"
            value={categoryId}
            onChange={(e) => setCategoryId(e.target.value === '' ? '' : Number(e.target.value))}
            sx={{ minWidth: 220 }}
          >
            <MenuItem value="">Selecione</MenuItem>
            {(categories.data ?? []).map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <Box sx={{ minWidth: 280, flex: 1 }}>
            <ProductPicker
              clientId={clientId}
              label="Adicionar produto"
              value={null}
              clearOnPick
              onChange={(p) => p && !picked.some((x) => x.id === p.id) && setPicked([...picked, p])}
            />
          </Box>
        )}
      </Box>
      {by === 'products' && picked.length > 0 && (
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
          {picked.map((p) => (
            <Chip key={p.id} label={p.name} onDelete={() => setPicked(picked.filter((x) => x.id !== p.id))} />
          ))}
        </Stack>
      )}
      {by === 'category' && categoryId !== '' && inCategory.isPending ? (
        <Loading />
      ) : products.length === 0 ? (
        <Typography color="text.secondary">
          {by === 'category'
            ? 'Escolha uma categoria com produtos ativos.'
            : 'Adicione os produtos da tabela.'}
        </Typography>
      ) : (
        <Box id={PRINT_ID} sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
          <Stack
            direction="row"
            sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
          >
            <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
              {categoryName && by === 'category' ? `${categoryName}: ` : ''}
              {upToLabel(count)} no cartão
            </Typography>
            <Button
              className="no-print"
              variant="outlined"
              startIcon={<PrintIcon />}
              onClick={() => window.print()}
            >
              Imprimir
            </Button>
          </Stack>
          {/* Many columns: the box scrolls sideways and takes the focus, so a keyboard can scroll it. */}
          <Box
            tabIndex={0}
            role="group"
            aria-label={`Parcelas ${upToLabel(count)}`}
            sx={{ overflowX: 'auto', minWidth: 0 }}
          >
            <ListTable
              label={`Tabela de balcão ${upToLabel(count)}`}
              head={['Produto', alignRight('À vista'), ...counts.map((n) => alignRight(`${n}x de`))]}
              sx={{ overflowX: 'visible', '& td, & th': { px: 1 }, '& td': { whiteSpace: 'nowrap' } }}
            >
              {products.map((p) => (
                <TableRow key={p.id} data-product={p.name}>
                  <TableCell component="th" scope="row" sx={{ minWidth: 140 }}>
                    {p.name}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                    {formatCents(p.salePriceCents)}
                  </TableCell>
                  {counts.map((n) => {
                    const price = counterPrice(source.rates, p.salePriceCents, n);
                    return (
                      <TableCell key={n} align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {price ? formatCents(price.installmentCents) : '—'}
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </ListTable>
          </Box>
          <Typography variant="caption" color="text.secondary">
            Parcelas no cartão de crédito com a taxa repassada: a loja recebe o preço à vista.{' '}
            {source.acquirer}, {sourceDateLine(source)}. Valores de {formatDateBr(shopToday())}.
          </Typography>
        </Box>
      )}
    </Paper>
  );
}
