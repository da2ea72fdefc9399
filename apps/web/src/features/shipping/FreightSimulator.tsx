import { CEP_NOT_FOUND, isValidCep, maskCep, normalizeCep } from '@balcao/core/cep';
import { formatCents } from '@balcao/core/money';
import type { ProductListItem } from '@balcao/core/product';
import { can, SHIPPING } from '@balcao/core/routes';
import {
  CARRIER_LABELS,
  type Carrier,
  type FreightOption,
  type FreightQuote,
  type PackageDims,
  sortFreightOptions,
} from '@balcao/core/shipping';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ListTable } from '../../components/listPage.tsx';
import { centsOf, MoneyField, QuantityField } from '../../components/MoneyField.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { fetchCep } from '../customer/index.ts';
import { searchProducts } from '../product/index.ts';
import { pickFreight, postFreightQuote, shippingQueries } from './api.ts';

type Line = { product: ProductListItem; quantity: string };
const PDV = '/dashboard/sale/pdv';

const num = (text: string) => Number(text.replace(',', '.'));
const text = (n: number) => String(n).replace('.', ',');
type BoxText = { heightCm: string; widthCm: string; lengthCm: string; weightKg: string };
const EMPTY_BOX: BoxText = { heightCm: '', widthCm: '', lengthCm: '', weightKg: '' };
const boxText = (p: PackageDims): BoxText => ({
  heightCm: text(p.heightCm),
  widthCm: text(p.widthCm),
  lengthCm: text(p.lengthCm),
  weightKg: text(p.weightKg),
});

/** The page has no address fields: a CEP that cannot be looked up does not stop the quote. */
export const SIMULATOR_CEP_UNAVAILABLE =
  'Não foi possível consultar o endereço deste CEP agora. A cotação funciona mesmo assim.';

/** The carrier's default box (its settings), for the users who may read them; null otherwise. */
function useDefaultBox(carrier: Carrier, userTypeId: number | undefined): PackageDims | null {
  const readable = can(userTypeId, SHIPPING);
  const me = useQuery({
    ...shippingQueries.melhorEnvio(),
    enabled: readable && carrier === 'melhor_envio',
    retry: false,
  });
  const rte = useQuery({
    ...shippingQueries.rodonaves(),
    enabled: readable && carrier === 'rodonaves',
    retry: false,
  });
  return (carrier === 'melhor_envio' ? me.data : rte.data)?.defaultPackage ?? null;
}

function daysText(o: FreightOption): string {
  if (o.deliveryMinDays == null && o.deliveryMaxDays == null) return '—';
  const min = o.deliveryMinDays ?? o.deliveryMaxDays;
  const max = o.deliveryMaxDays ?? o.deliveryMinDays;
  const unit = max === 1 ? 'dia útil' : 'dias úteis';
  return min === max ? `${max} ${unit}` : `${min} a ${max} ${unit}`;
}

/**
 * Freight simulator of a carrier (/dashboard/freight/melhor-envio, /dashboard/freight/rodonaves): from
 * and to CEP (the address shown), a box or products of the catalog with quantities, the invoice value;
 * one row per service (price, range, error or "estimativa"), sortable, and one click to use a quote in
 * the next sale's delivery.
 */
export function FreightSimulator({ carrier }: { carrier: Carrier }) {
  const { user } = useSession();
  const clientId = user?.client.id ?? 0;
  const navigate = useNavigate();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [address, setAddress] = useState<string | null>(null);
  const [mode, setMode] = useState<'package' | 'products'>('package');
  const [box, setBox] = useState<BoxText>(EMPTY_BOX);
  const defaultBox = useDefaultBox(carrier, user?.userType.id);
  const [boxTouched, setBoxTouched] = useState(false);
  // The carrier's default box fills the fields (never asked again when it exists); the user may change it.
  useEffect(() => {
    if (defaultBox && !boxTouched) setBox(boxText(defaultBox));
  }, [defaultBox, boxTouched]);
  const editBox = (change: Partial<BoxText>) => {
    setBoxTouched(true);
    setBox((b) => ({ ...b, ...change }));
  };
  const [lines, setLines] = useState<Line[]>([]);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<ProductListItem[]>([]);
  const [invoice, setInvoice] = useState('');
  const [sort, setSort] = useState<'price' | 'time'>('price');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [quote, setQuote] = useState<FreightQuote | null>(null);

  useEffect(() => {
    setAddress(null);
    if (!isValidCep(to)) return;
    const cep = normalizeCep(to);
    let alive = true;
    fetchCep(cep)
      .then((a) => {
        if (alive) setAddress([a.street, a.neighborhood, `${a.city}/${a.state}`].filter(Boolean).join(', '));
      })
      .catch((e) => {
        if (!alive) return;
        const notFound = e instanceof ApiError && e.status === 404;
        setAddress(notFound ? CEP_NOT_FOUND : SIMULATOR_CEP_UNAVAILABLE);
      });
    return () => {
      alive = false;
    };
  }, [to]);

  useEffect(() => {
    if (search.trim().length < 2 || !clientId) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchProducts(clientId, search.trim(), controller.signal)
        .then((page) => setFound(page.items))
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search, clientId]);

  const simulate = async () => {
    setError(null);
    if (!isValidCep(to)) {
      setError('Informe um CEP de destino válido');
      return;
    }
    if (from && !isValidCep(from)) {
      setError('CEP de origem inválido');
      return;
    }
    const invoiceCents = centsOf(invoice);
    // An empty box: the server uses the carrier's default box (or says none is set).
    const boxEmpty = Object.values(box).every((v) => !v.trim());
    const body =
      mode === 'products'
        ? {
            products: lines.map((l) => ({
              productId: l.product.id,
              quantity: Math.max(1, Math.round(num(l.quantity) || 0)),
            })),
          }
        : boxEmpty
          ? {}
          : {
              package: {
                heightCm: num(box.heightCm),
                widthCm: num(box.widthCm),
                lengthCm: num(box.lengthCm),
                weightKg: num(box.weightKg),
              },
            };
    if (mode === 'products' && lines.length === 0) {
      setError('Escolha ao menos um produto');
      return;
    }
    if (mode === 'package' && !boxEmpty && Object.values(box).some((v) => !v || !(num(v) > 0))) {
      setError('Informe altura, largura, comprimento e peso da caixa');
      return;
    }
    setBusy(true);
    try {
      setQuote(
        await postFreightQuote({
          carriers: [carrier],
          fromZipCode: from,
          toZipCode: to,
          invoiceValueCents: Number.isNaN(invoiceCents) ? 0 : invoiceCents,
          ...body,
        }),
      );
    } catch (e) {
      setQuote(null);
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const use = (o: FreightOption) => {
    if (o.priceCents == null) return;
    pickFreight({ cents: o.priceCents, label: `${o.companyName} ${o.serviceName}`.trim() });
    navigate(PDV);
  };

  const options = quote ? sortFreightOptions(quote.options, sort) : [];

  return (
    <Box sx={{ maxWidth: 1000 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        Frete {CARRIER_LABELS[carrier]}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <TextField
              label="CEP de origem"
              value={from}
              onChange={(e) => setFrom(maskCep(e.target.value))}
              placeholder="CEP da loja"
              helperText="Vazio: o CEP de origem configurado"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <TextField
              label="CEP de destino"
              value={to}
              onChange={(e) => setTo(maskCep(e.target.value))}
              required
              helperText={address ?? ' '}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          </Box>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={mode}
            onChange={(_e, value) => value && setMode(value)}
            aria-label="O que enviar"
          >
            <ToggleButton value="package">Caixa</ToggleButton>
            <ToggleButton value="products">Produtos do catálogo</ToggleButton>
          </ToggleButtonGroup>
          {mode === 'package' ? (
            <Box
              sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' }, gap: 2 }}
            >
              <QuantityField
                label="Altura"
                suffix="cm"
                places={2}
                value={box.heightCm}
                onChange={(v) => editBox({ heightCm: v })}
              />
              <QuantityField
                label="Largura"
                suffix="cm"
                places={2}
                value={box.widthCm}
                onChange={(v) => editBox({ widthCm: v })}
              />
              <QuantityField
                label="Comprimento"
                suffix="cm"
                places={2}
                value={box.lengthCm}
                onChange={(v) => editBox({ lengthCm: v })}
              />
              <QuantityField
                label="Peso"
                suffix="kg"
                value={box.weightKg}
                onChange={(v) => editBox({ weightKg: v })}
              />
              <Typography
                variant="body2"
                color="text.secondary"
                data-testid="freight-box-hint"
                sx={{ gridColumn: '1 / -1' }}
              >
                {defaultBox
                  ? 'Caixa padrão da transportadora. Altere se este envio for diferente.'
                  : 'Vazio: a caixa padrão das configurações da transportadora.'}
              </Typography>
            </Box>
          ) : (
            <Stack spacing={1}>
              <Autocomplete
                options={found}
                filterOptions={(x) => x}
                getOptionLabel={(p) => p.name}
                inputValue={search}
                onInputChange={(_e, value, reason) => reason !== 'reset' && setSearch(value)}
                value={null}
                onChange={(_e, product) => {
                  if (product && !lines.some((l) => l.product.id === product.id))
                    setLines([...lines, { product, quantity: '1' }]);
                  setSearch('');
                }}
                renderInput={(params) => <TextField {...params} label="Buscar produto" />}
                noOptionsText="Digite para buscar"
              />
              {lines.map((l, i) => (
                <Stack key={l.product.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ flex: 1 }}>{l.product.name}</Typography>
                  <TextField
                    label="Quantidade"
                    size="small"
                    value={l.quantity}
                    onChange={(e) =>
                      setLines(
                        lines.map((x, j) =>
                          j === i ? { ...x, quantity: e.target.value.replace(/\D/g, '') } : x,
                        ),
                      )
                    }
                    sx={{ width: 120 }}
                  />
                  <IconButton
                    aria-label={`Remover ${l.product.name}`}
                    onClick={() => setLines(lines.filter((_x, j) => j !== i))}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Stack>
              ))}
            </Stack>
          )}
          <MoneyField label="Valor da nota" value={invoice} onChange={setInvoice} sx={{ maxWidth: 280 }} />
          {error && <Alert severity="error">{error}</Alert>}
          <Box>
            <Button variant="contained" onClick={simulate} disabled={busy}>
              {busy ? 'Cotando...' : 'Cotar frete'}
            </Button>
          </Box>
        </Stack>
      </Paper>

      {quote && (
        <Paper variant="outlined" sx={{ mt: 2, p: 2 }}>
          <Stack
            direction="row"
            sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, flexWrap: 'wrap', gap: 1 }}
          >
            <Typography variant="body2" color="text.secondary">
              De {maskCep(quote.fromZipCode)} para {maskCep(quote.toZipCode)} ·{' '}
              {String(quote.weightKg).replace('.', ',')} kg
            </Typography>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={sort}
              onChange={(_e, v) => v && setSort(v)}
              aria-label="Ordenar"
            >
              <ToggleButton value="price">Menor preço</ToggleButton>
              <ToggleButton value="time">Menor prazo</ToggleButton>
            </ToggleButtonGroup>
          </Stack>
          <ListTable label="Cotações" head={['Transportadora', 'Serviço', 'Preço', 'Prazo', '']}>
            {options.map((o) => (
              <TableRow key={`${o.carrier}-${o.serviceId}`}>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Avatar
                      src={o.companyPicture ?? undefined}
                      alt=""
                      sx={{ width: 28, height: 28, fontSize: 14 }}
                    >
                      {o.companyName.slice(0, 1)}
                    </Avatar>
                    <span>{o.companyName}</span>
                  </Stack>
                </TableCell>
                <TableCell>
                  {o.serviceName}
                  {o.error && (
                    <Typography variant="body2" color={o.estimate ? 'warning.main' : 'error'}>
                      {o.error}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {o.priceCents == null ? '—' : formatCents(o.priceCents)}
                  {o.estimate && <Chip size="small" color="warning" label="estimativa" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{daysText(o)}</TableCell>
                <TableCell align="right">
                  {o.priceCents != null && (
                    <Button size="small" onClick={() => use(o)}>
                      Usar na venda
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
    </Box>
  );
}
