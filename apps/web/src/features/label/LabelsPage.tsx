import { labelApi } from '@balcao/core/endpoints/label';
import { type LabelLanguage, labelItemsText } from '@balcao/core/labels/printerLabels';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { download } from '../../lib/client.ts';
import { useSession } from '../auth/index.ts';
import { fetchProduct, searchProducts } from '../product/index.ts';

/** One label row: a product or one of its variants, and how many labels. */
type Row = {
  key: string;
  productId: number;
  variantId: number | null;
  name: string;
  variantName: string | null;
  priceCents: number;
  code: string | null;
  copies: number;
};

type Hit = { id: number; name: string; sku: string | null; salePriceCents: number };

/**
 * Produtos > Etiquetas (issue 36): choose products (each variant of a grid gets its row) and how many
 * labels, then an A4 sheet PDF for an ordinary printer or ZPL/EPL for a thermal label printer.
 */
export default function LabelsPage() {
  const { user } = useSession();
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!user || q.trim().length < 2) {
      setHits([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchProducts(user.client.id, q.trim(), controller.signal)
        .then((page) => setHits(page.items))
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, user]);

  const add = async (hit: Hit) => {
    setError(null);
    try {
      const product = await fetchProduct(hit.id);
      const variants = product.variants.filter((v) => v.active);
      const added: Row[] = variants.length
        ? variants.map((v) => ({
            key: `${product.id}-${v.id}`,
            productId: product.id,
            variantId: v.id,
            name: product.name,
            variantName: v.name,
            priceCents: v.effectivePriceCents,
            code: v.barcode ?? v.sku,
            copies: 1,
          }))
        : [
            {
              key: `${product.id}`,
              productId: product.id,
              variantId: null,
              name: product.name,
              variantName: null,
              priceCents: product.salePriceCents,
              code: product.barcode ?? product.sku,
              copies: 1,
            },
          ];
      setRows((current) => [...current, ...added.filter((a) => !current.some((c) => c.key === a.key))]);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const valid =
    rows.length > 0 && rows.every((r) => Number.isInteger(r.copies) && r.copies >= 1 && r.copies <= 500);
  const items = labelItemsText(rows);
  const total = rows.reduce((sum, r) => sum + (Number.isFinite(r.copies) ? r.copies : 0), 0);
  const commands = (language: LabelLanguage) =>
    download(labelApi.commands, { query: { items, language } }, `etiquetas.${language}`).catch((e: Error) =>
      setError(e.message),
    );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Etiquetas
      </Typography>
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Autocomplete
          options={hits}
          filterOptions={(x) => x}
          getOptionLabel={(h) => h.name}
          renderOption={(props, h) => (
            <li {...props} key={h.id}>
              {h.name}
              {h.sku ? ` · ${h.sku}` : ''} · {formatCents(h.salePriceCents)}
            </li>
          )}
          inputValue={q}
          onInputChange={(_, value, reason) => reason !== 'reset' && setQ(value)}
          value={null}
          onChange={(_, hit) => {
            if (hit) void add(hit);
            setQ('');
          }}
          noOptionsText={q.trim().length < 2 ? 'Digite o nome, SKU ou código' : 'Nenhum produto encontrado'}
          renderInput={(params) => <TextField {...params} label="Adicionar produto" />}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {rows.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            Escolha os produtos: cada variação da grade ganha sua linha.
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto', mt: 2 }}>
            <Table size="small" aria-label="Etiquetas a imprimir">
              <TableHead>
                <TableRow>
                  <TableCell>Produto</TableCell>
                  <TableCell align="right">Preço</TableCell>
                  <TableCell>Código</TableCell>
                  <TableCell sx={{ width: 110 }}>Etiquetas</TableCell>
                  <TableCell sx={{ width: 48 }} />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => {
                  const label = `${r.name}${r.variantName ? ` (${r.variantName})` : ''}`;
                  return (
                    <TableRow key={r.key}>
                      <TableCell>{label}</TableCell>
                      <TableCell align="right">{formatCents(r.priceCents)}</TableCell>
                      <TableCell>{r.code ?? `P${r.productId}`}</TableCell>
                      <TableCell>
                        <TextField
                          size="small"
                          value={Number.isFinite(r.copies) ? String(r.copies) : ''}
                          error={!Number.isInteger(r.copies) || r.copies < 1 || r.copies > 500}
                          onChange={(e) => {
                            const copies =
                              e.target.value === '' ? Number.NaN : Number(e.target.value.replace(/\D/g, ''));
                            setRows((current) =>
                              current.map((c) => (c.key === r.key ? { ...c, copies } : c)),
                            );
                          }}
                          slotProps={{
                            htmlInput: { inputMode: 'numeric', 'aria-label': `Etiquetas de ${label}` },
                          }}
                        />
                      </TableCell>
                      <TableCell>
                        <IconButton
                          size="small"
                          aria-label={`Remover ${label}`}
                          onClick={() => setRows((current) => current.filter((c) => c.key !== r.key))}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
        )}
      </Paper>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="contained"
          disabled={!valid}
          onClick={() =>
            download(labelApi.pdf, { query: { items } }, 'etiquetas.pdf').catch((e: Error) =>
              setError(e.message),
            )
          }
        >
          Gerar PDF (folha A4)
        </Button>
        <Button disabled={!valid} onClick={() => void commands('zpl')}>
          Baixar ZPL (Zebra, Elgin)
        </Button>
        <Button disabled={!valid} onClick={() => void commands('epl')}>
          Baixar EPL (Zebra LP, Argox)
        </Button>
        <Typography variant="body2" color="text.secondary">
          {total > 0 ? plural(total, 'etiqueta', 'etiquetas') : ''}
        </Typography>
      </Stack>
    </Stack>
  );
}
