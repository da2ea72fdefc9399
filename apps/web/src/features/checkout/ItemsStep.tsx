import { formatCents, parseMoneyToCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { formatQuantity, type Product, type ProductVariant, type WeighedMatch } from '@balcao/core/product';
import {
  formatPercentHundredths,
  lineTotals,
  parsePercentToHundredths,
  parseQuantity,
} from '@balcao/core/sale';
import { quantityFromScale } from '@balcao/core/scale/serialScale';
import { looksLikeScaleLabel } from '@balcao/core/scale/weighedLabel';
import DeleteIcon from '@mui/icons-material/Delete';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, memo, type RefObject, useEffect, useRef, useState } from 'react';
import { ListTable } from '../../components/listPage.tsx';
import { centsToInput } from '../../components/MoneyField.tsx';
import { type ProductChoice, ProductOptionsDialog } from '../../components/ProductOptionsDialog.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import type { LocalCatalog, SearchHit } from '../offline/index.ts';
import { isOffline, setUnreachable } from '../offline/index.ts';
import { searchProducts } from '../product/index.ts';
import { fetchByBarcode, fetchProductDetail } from '../sale/index.ts';
import { fetchWeighedLabel, LiveScalePanel, useLiveScale, useScaleSettings } from '../scale/index.ts';
import type { PdvAction, PdvLine } from './state.ts';

const FRACTIONAL_UNITS = ['kg', 'g', 'l', 'ml', 'm', 'm2'];

type Props = {
  /** The local catalog (issue 21): searched when the PDV is offline. Without it, the server only. */
  catalog?: LocalCatalog;
  clientId: number;
  items: PdvLine[];
  dispatch: (action: PdvAction) => void;
  searchRef: RefObject<HTMLInputElement | null>;
  /** A notes field on each line (the budget PDV); default off, as the PDV. */
  lineNotes?: boolean;
  /** What an empty cart says; default the PDV's. */
  emptyText?: string;
  /**
   * Issue 36: the scale read live (a print agent's, or through Web Serial) at the PDV; a kg product
   * takes its stable weight.
   */
  liveScale?: boolean;
};

/** "3*7891234567895" -> quantity 3 and the code; "0,350*..." for kg. */
function splitQuantity(text: string): { quantity: number; code: string } {
  const m = /^(\d+(?:[.,]\d{1,3})?)\s*[*xX]\s*(.+)$/.exec(text.trim());
  if (!m) return { quantity: 1, code: text.trim() };
  const quantity = parseQuantity(m[1]);
  return { quantity: Number.isNaN(quantity) || quantity <= 0 ? 1 : quantity, code: m[2].trim() };
}

/**
 * Runs the server lookup online; offline (or when the server cannot be reached) the local catalog's.
 * Online, the catalog's fill waits for it (`lookingUp`): a scan is answered before the next page.
 */
async function fromCatalog<T>(
  catalog: LocalCatalog | undefined,
  server: () => Promise<T>,
  local: (catalog: LocalCatalog) => Promise<T>,
): Promise<T> {
  if (catalog && isOffline()) return local(catalog);
  try {
    return await (catalog ? catalog.lookingUp(server) : server());
  } catch (error) {
    if (!catalog || !(error instanceof ApiError) || error.status !== 0) throw error;
    setUnreachable(true);
    return local(catalog);
  }
}

const notInCatalog = () => new ApiError(404, 'Nenhum produto com este código de barras');

/**
 * Step 0, items: the search box takes a barcode scanner's input (keyboard wedge: digits then Enter
 * -> barcode lookup) and searches by name/SKU as you type; arrows pick a result, Enter adds it.
 */
export function ItemsStep({
  catalog,
  clientId,
  items,
  dispatch,
  searchRef,
  lineNotes = false,
  emptyText,
  liveScale = false,
}: Props) {
  const [text, setText] = useState('');
  const [results, setResults] = useState<SearchHit[]>([]);
  const [highlight, setHighlight] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const scale = useScaleSettings().data;
  const live = useLiveScale(liveScale ? clientId : undefined);
  /** The latest reading, for lookups queued before it changed. */
  const liveNow = useRef(live);
  liveNow.current = live;
  const [options, setOptions] = useState<{
    product: Product;
    variant: ProductVariant | null;
    quantity: number;
  } | null>(null);

  // Search as you type (not for pure digits: that is a scanner or a typed barcode, looked up on Enter).
  useEffect(() => {
    const { code } = splitQuantity(text);
    if (code.length < 2 || /^\d+$/.test(code)) {
      setResults([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fromCatalog(
        catalog,
        () => searchProducts(clientId, code, controller.signal),
        async (local) => ({ items: await local.search(code) }),
      )
        .then((page) => {
          if (controller.signal.aborted) return;
          setResults(page.items);
          setHighlight(0);
        })
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, clientId, catalog]);

  const focusSearch = () => setTimeout(() => searchRef.current?.focus(), 0);

  const addLine = (
    product: Product,
    variant: ProductVariant | null,
    quantity: number,
    choice?: ProductChoice,
  ) => {
    const fractional = product.productType === 'weighed' || FRACTIONAL_UNITS.includes(product.unit);
    const truncate = product.unit === 'kg' && scale?.rounding === 'truncate';
    dispatch({
      type: 'addLine',
      line: {
        productId: product.id,
        variantId: variant?.id ?? null,
        name: product.name,
        variantName: variant?.name ?? null,
        sku: variant?.sku ?? product.sku,
        barcode: variant?.barcode ?? product.barcode,
        unit: product.unit,
        fractional,
        quantity: fractional ? quantity : Math.max(1, Math.round(quantity)),
        unitPriceCents: variant ? variant.effectivePriceCents : product.salePriceCents,
        additionals: choice?.additionals ?? [],
        discountType: 'fixed_amount',
        discountValue: 0,
        ...(truncate ? { truncate } : {}),
      },
    });
    setMessage(null);
    focusSearch();
  };

  const offer = (product: Product, variant: ProductVariant | null, typed: number) => {
    if (!product.active) {
      setMessage(`O produto ${product.name} está inativo`);
      return;
    }
    let quantity = typed;
    // A kg product with the scale connected takes the weight on the plate; never an unstable one.
    if (liveScale && liveNow.current.connected && product.unit === 'kg') {
      const weighed = quantityFromScale(liveNow.current.reading, product.name);
      if ('message' in weighed) {
        setMessage(weighed.message);
        return;
      }
      quantity = weighed.quantity;
    }
    const needsVariant = product.variants.some((v) => v.active) && !variant;
    const hasAddOns = product.additionalGroups.some((g) => g.active);
    if (needsVariant || hasAddOns) setOptions({ product, variant, quantity });
    else addLine(product, variant, quantity);
  };

  /**
   * Issue 36: a weighed label (EAN-13 starting with 2, labels on in Configurações > Sistema) adds its
   * product with the label's weight; a price label at another price per kg says so. Null when the
   * code is no product's scale code (an ordinary prefix-2 barcode is then looked up as such).
   */
  const weighed = async (code: string): Promise<WeighedMatch | null> => {
    try {
      return await fetchWeighedLabel(code);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  };

  const lookup = async (raw: string, picked: SearchHit | undefined) => {
    const { quantity, code } = splitQuantity(raw);
    try {
      // Offline, the local catalog's scale codes answer it (the cached product, the shop's rule).
      const label =
        !picked && scale?.enabled && looksLikeScaleLabel(code)
          ? await fromCatalog(
              catalog,
              () => weighed(code),
              (local) => local.byScaleLabel(code, scale),
            )
          : null;
      if (label) {
        if (!label.product.active) {
          setMessage(`O produto ${label.product.name} está inativo`);
          return;
        }
        addLine(label.product, null, label.quantity);
        if (label.priceMismatch && label.labelAmountCents !== null)
          setMessage(
            `A etiqueta diz ${formatCents(label.labelAmountCents)}, mas ${label.product.name} custa ${formatCents(
              label.product.salePriceCents,
            )}/kg: o item entrou com ${formatQuantity(label.quantity, 'kg')} (${formatCents(
              label.amountCents,
            )}). Confira o preço na balança.`,
          );
        return;
      }
      if (picked) {
        const product = await fromCatalog(
          catalog,
          () => fetchProductDetail(picked.id),
          async (local) => {
            const found = await local.get(picked.id);
            if (!found) throw notInCatalog();
            return found;
          },
        );
        offer(product, null, quantity);
      } else {
        const match = await fromCatalog(
          catalog,
          () => fetchByBarcode(code),
          async (local) => {
            const found = await local.byCode(code);
            if (!found) throw notInCatalog();
            return found;
          },
        );
        offer(match.product, match.variant, quantity);
      }
    } catch (error) {
      setMessage(
        error instanceof ApiError && error.code === 'not_found'
          ? `Nenhum produto encontrado para "${code}"`
          : errorMessage(error),
      );
      // Give the code back to fix it, unless the next scan is already being typed.
      if (!searchRef.current?.value) {
        setText(raw);
        setTimeout(() => searchRef.current?.select(), 0);
      }
    }
  };

  /**
   * Enter: the box is cleared at once and the code queued, so a fast scanner's next code is never
   * mixed with (or wiped by) the one still being looked up; lines are added in scan order.
   */
  const submit = (chosen?: SearchHit) => {
    const raw = text;
    const { code } = splitQuantity(raw);
    if (!code) return;
    const picked = chosen ?? (/^\d+$/.test(code) ? undefined : results[highlight]);
    setText('');
    setResults([]);
    setPending((n) => n + 1);
    queue.current = queue.current.then(() => lookup(raw, picked)).finally(() => setPending((n) => n - 1));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
    } else if (e.key === 'ArrowDown' && results.length) {
      e.preventDefault();
      setHighlight((h) => Math.min(h + 1, results.length - 1));
    } else if (e.key === 'ArrowUp' && results.length) {
      e.preventDefault();
      setHighlight((h) => Math.max(h - 1, 0));
    }
  };

  return (
    <Box>
      <Box sx={{ position: 'relative' }}>
        <TextField
          inputRef={searchRef}
          label="Código de barras, nome ou SKU (F2)"
          placeholder="Leia o código de barras ou digite para buscar; 3*código para 3 unidades"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          autoFocus
          fullWidth
          autoComplete="off"
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden />
                </InputAdornment>
              ),
              endAdornment:
                pending > 0 ? (
                  <InputAdornment position="end">
                    <CircularProgress size={20} aria-label="Buscando produto" />
                  </InputAdornment>
                ) : undefined,
            },
            htmlInput: {
              'aria-autocomplete': 'list',
              'aria-controls': results.length > 0 ? 'pdv-search-results' : undefined,
              'data-testid': 'pdv-search',
            },
          }}
        />
        {results.length > 0 && (
          <Paper elevation={6} sx={{ position: 'absolute', zIndex: 10, left: 0, right: 0, mt: 0.5 }}>
            <List id="pdv-search-results" dense aria-label="Produtos encontrados">
              {results.map((p, index) => (
                <ListItemButton
                  key={p.id}
                  selected={index === highlight}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => submit(p)}
                >
                  <ListItemText
                    primary={p.name}
                    secondary={[
                      p.sku,
                      p.barcode,
                      formatCents(p.salePriceCents),
                      p.stockControl ? `estoque ${formatQuantity(p.stock)}` : null,
                      p.variantCount ? plural(p.variantCount, 'variação', 'variações') : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                </ListItemButton>
              ))}
            </List>
          </Paper>
        )}
      </Box>
      {liveScale && <LiveScalePanel scale={live} />}
      {message && (
        <Alert severity="warning" sx={{ mt: 1 }} onClose={() => setMessage(null)}>
          {message}
        </Alert>
      )}
      <LinesTable items={items} dispatch={dispatch} lineNotes={lineNotes} emptyText={emptyText} />
      <ProductOptionsDialog
        product={options?.product ?? null}
        variant={options?.variant ?? null}
        onClose={() => {
          setOptions(null);
          focusSearch();
        }}
        onChoose={(choice) => {
          if (!options) return;
          addLine(options.product, choice.variant, options.quantity, choice);
          setOptions(null);
        }}
      />
    </Box>
  );
}

function LinesTable({
  items,
  dispatch,
  lineNotes,
  emptyText,
}: {
  items: PdvLine[];
  dispatch: (action: PdvAction) => void;
  lineNotes: boolean;
  emptyText?: string;
}) {
  if (items.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 4, mt: 2, textAlign: 'center' }}>
        <Typography color="text.secondary">
          {emptyText ?? 'Nenhum item na venda. Leia um código de barras para começar.'}
        </Typography>
      </Paper>
    );
  }
  const labels = lineLabels(items);
  return (
    <Paper variant="outlined" sx={{ mt: 2, overflowX: 'auto' }}>
      <ListTable
        label="Itens da venda"
        head={
          <>
            <TableCell>Item</TableCell>
            <TableCell sx={{ width: 140 }}>Qtd.</TableCell>
            <TableCell align="right">Unitário</TableCell>
            <TableCell sx={{ width: 140 }}>Desconto</TableCell>
            <TableCell align="right">Total</TableCell>
            <TableCell sx={{ width: 48 }} />
          </>
        }
      >
        {items.map((line, index) => (
          <LineRow
            key={line.key}
            line={line}
            label={labels[index]}
            index={index}
            dispatch={dispatch}
            lineNotes={lineNotes}
          />
        ))}
      </ListTable>
    </Paper>
  );
}

/**
 * One line of the cart. Memoized: a scan appends a line and re-renders only that row (lines that did
 * not change keep their object), which keeps barcode-to-line fast on long sales.
 */
/**
 * What a line's controls are named by (issue 30, axe): the product, its variant and add-ons, so two
 * lines of one product in different variants are told apart ("Remover Camiseta (Azul M)"); two
 * lines alike still get their position ("..., item 2").
 */
export function lineLabels(items: readonly PdvLine[]): string[] {
  const base = items.map(
    (l) =>
      `${l.name}${l.variantName ? ` (${l.variantName})` : ''}${
        l.additionals.length ? ` + ${l.additionals.map((a) => a.name).join(', ')}` : ''
      }`,
  );
  return base.map((b, i) => (base.filter((x) => x === b).length > 1 ? `${b}, item ${i + 1}` : b));
}

const LineRow = memo(function LineRow({
  line,
  label,
  index,
  dispatch,
  lineNotes = false,
}: {
  line: PdvLine;
  /** The line's accessible name (`lineLabels`). */
  label: string;
  index: number;
  dispatch: (action: PdvAction) => void;
  lineNotes?: boolean;
}) {
  const totals = lineTotals(line);
  return (
    <TableRow data-testid="pdv-line">
      <TableCell>
        <Typography variant="body2">
          {index + 1}. {line.name}
          {line.variantName ? ` (${line.variantName})` : ''}
        </Typography>
        {line.additionals.length > 0 && (
          <Typography variant="caption" color="text.secondary">
            + {line.additionals.map((a) => a.name).join(', ')}
          </Typography>
        )}
        {lineNotes && (
          <TextField
            size="small"
            variant="standard"
            fullWidth
            placeholder="Observação do item"
            value={line.notes ?? ''}
            onChange={(e) =>
              dispatch({ type: 'updateLine', key: line.key, changes: { notes: e.target.value } })
            }
            slotProps={{ htmlInput: { maxLength: 200, 'aria-label': `Observação de ${label}` } }}
          />
        )}
      </TableCell>
      <TableCell>
        <QuantityInput line={line} label={label} dispatch={dispatch} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {formatCents(totals.unitTotalCents)}
      </TableCell>
      <TableCell>
        <DiscountInput line={line} label={label} grossCents={totals.grossCents} dispatch={dispatch} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }} data-testid="pdv-line-total">
        {formatCents(totals.totalCents)}
      </TableCell>
      <TableCell>
        <IconButton
          size="small"
          aria-label={`Remover ${label}`}
          onClick={() => dispatch({ type: 'removeLine', key: line.key })}
        >
          <DeleteIcon fontSize="small" />
        </IconButton>
      </TableCell>
    </TableRow>
  );
});

const qtyFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

function QuantityInput({
  line,
  label,
  dispatch,
}: {
  line: PdvLine;
  label: string;
  dispatch: (action: PdvAction) => void;
}) {
  const [text, setText] = useState(qtyFormat.format(line.quantity).replace(/\./g, ''));
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setText(qtyFormat.format(line.quantity).replace(/\./g, ''));
  }, [line.quantity]);
  const quantity = parseQuantity(text);
  const invalid =
    Number.isNaN(quantity) || quantity <= 0 || (!line.fractional && !Number.isInteger(quantity));
  const commit = () => {
    editing.current = false;
    if (!invalid) dispatch({ type: 'updateLine', key: line.key, changes: { quantity } });
    else setText(qtyFormat.format(line.quantity).replace(/\./g, ''));
  };
  return (
    <TextField
      size="small"
      sx={{ minWidth: 110 }}
      value={text}
      error={invalid}
      onFocus={() => {
        editing.current = true;
      }}
      onChange={(e) => setText(e.target.value.replace(/[^\d,]/g, ''))}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'aria-label': `Quantidade de ${label}` },
        input: { endAdornment: <InputAdornment position="end">{line.unit}</InputAdornment> },
      }}
    />
  );
}

/** Line discount: "2,50" is R$ 2,50 off; "10%" is 10% off the line. */
function DiscountInput({
  line,
  label,
  grossCents,
  dispatch,
}: {
  line: PdvLine;
  label: string;
  grossCents: number;
  dispatch: (action: PdvAction) => void;
}) {
  const [text, setText] = useState(
    line.discountValue
      ? line.discountType === 'percentage'
        ? `${formatPercentHundredths(line.discountValue).replace('%', '')}%`
        : centsToInput(line.discountValue)
      : '',
  );
  const percent = text.trim().endsWith('%');
  const value = text.trim() === '' ? 0 : percent ? parsePercentToHundredths(text) : parseMoneyToCents(text);
  const invalid = Number.isNaN(value) || (percent ? value > 10000 : value > grossCents);
  const commit = () => {
    if (!invalid)
      dispatch({
        type: 'updateLine',
        key: line.key,
        changes: { discountType: percent ? 'percentage' : 'fixed_amount', discountValue: value },
      });
  };
  return (
    <TextField
      size="small"
      sx={{ minWidth: 110 }}
      value={text}
      error={invalid}
      placeholder="0,00"
      title="Valor em R$ ou percentual com % (ex.: 10%)"
      onChange={(e) => setText(e.target.value.replace(/[^\d,%]/g, ''))}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'aria-label': `Desconto em ${label} (R$ ou %)` },
        input: { startAdornment: percent ? undefined : <InputAdornment position="start">R$</InputAdornment> },
      }}
    />
  );
}
