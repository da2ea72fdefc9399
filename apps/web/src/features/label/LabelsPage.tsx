import { labelApi } from '@balcao/core/endpoints/label';
import { printingApi } from '@balcao/core/endpoints/printing';
import { type LabelLanguage, labelItemsQuerySchema, labelItemsText } from '@balcao/core/labels/printerLabels';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { download, newIdempotencyKey, queryOf, useCall } from '../../lib/client.ts';
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

/** A product's label rows: each active variant of a grid, or the product itself. */
function rowsOf(product: Awaited<ReturnType<typeof fetchProduct>>): Row[] {
  const variants = product.variants.filter((v) => v.active);
  return variants.length
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
}

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
      const added = rowsOf(await fetchProduct(hit.id));
      setRows((current) => [...current, ...added.filter((a) => !current.some((c) => c.key === a.key))]);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  // A stock entry's lines (?items=12x3,15-7x2, from "Imprimir etiquetas" after an entry): its rows.
  const [params] = useSearchParams();
  const fromUrl = params.get('items');
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    if (!fromUrl || loaded.current === fromUrl) return;
    loaded.current = fromUrl;
    const chosen = labelItemsQuerySchema.shape.items.safeParse(fromUrl);
    if (!chosen.success) return;
    void (async () => {
      const added: Row[] = [];
      for (const c of chosen.data) {
        try {
          const all = rowsOf(await fetchProduct(c.productId));
          const row =
            all.find((r) => r.variantId === c.variantId) ?? (c.variantId === null ? all[0] : undefined);
          if (row && !added.some((a) => a.key === row.key)) added.push({ ...row, copies: c.copies });
        } catch {
          // A product removed since the entry: left out.
        }
      }
      setRows(added);
    })();
  }, [fromUrl]);

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
            {/* On a phone (390 px) the quantity must be on screen: the code column goes, cells get narrower
                padding and the price keeps to one line (the walk of issue 36). */}
            <Table
              size="small"
              aria-label="Etiquetas a imprimir"
              sx={{ '& .MuiTableCell-root': { px: { xs: 0.75, sm: 2 } } }}
            >
              <TableHead>
                <TableRow>
                  <TableCell>Produto</TableCell>
                  <TableCell align="right">Preço</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Código</TableCell>
                  <TableCell sx={{ width: { xs: 72, sm: 110 } }}>Etiquetas</TableCell>
                  <TableCell sx={{ width: 48 }} />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => {
                  const label = `${r.name}${r.variantName ? ` (${r.variantName})` : ''}`;
                  return (
                    <TableRow key={r.key}>
                      <TableCell>{label}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {formatCents(r.priceCents)}
                      </TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                        {r.code ?? `P${r.productId}`}
                      </TableCell>
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
      <AgentPrint items={items} disabled={!valid} />
    </Stack>
  );
}

/**
 * The label printer through the print agent: the profiles a paired agent prints (the agent maps each
 * to its printer), the printer's language, and one click = one job (its idempotency key is made
 * once per click, so a retried request prints once).
 */
function AgentPrint({ items, disabled }: { items: string; disabled: boolean }) {
  const settings = useQuery(queryOf(printingApi.settings));
  const agents = useQuery(queryOf(printingApi.agents));
  const send = useCall(labelApi.print);
  const [profileId, setProfileId] = useState<number | ''>('');
  const [language, setLanguage] = useState<LabelLanguage>('zpl');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const paired = new Set(
    (agents.data ?? []).filter((a) => a.status === 'paired').flatMap((a) => a.profileIds),
  );
  const profiles = (settings.data?.profiles ?? []).filter((p) => paired.has(p.id));
  const chosen = profileId === '' && profiles.length === 1 ? profiles[0].id : profileId;
  if (settings.isPending || agents.isPending) return null;
  return (
    <Paper component="section" aria-label="Impressora de etiquetas" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Impressora de etiquetas
      </Typography>
      {profiles.length === 0 ? (
        <Typography color="text.secondary">
          Para imprimir direto na impressora de etiquetas, pareie um agente de impressão para um perfil em
          Configurações &gt; Impressoras.
        </Typography>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label="Perfil da impressora"
            value={chosen}
            onChange={(e) => setProfileId(Number(e.target.value))}
            sx={{ minWidth: 220 }}
          >
            {profiles.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Linguagem"
            value={language}
            onChange={(e) => setLanguage(e.target.value as LabelLanguage)}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="zpl">ZPL (Zebra, Elgin)</MenuItem>
            <MenuItem value="epl">EPL (Zebra LP, Argox)</MenuItem>
          </TextField>
          <Button
            variant="contained"
            disabled={disabled || chosen === '' || send.isPending}
            onClick={() => {
              setMessage(null);
              send
                .mutateAsync({
                  body: { items, language, profileId: Number(chosen), idempotencyKey: newIdempotencyKey() },
                })
                .then(() => setMessage({ ok: true, text: 'Etiquetas enviadas para a impressora' }))
                .catch((e: Error) => setMessage({ ok: false, text: e.message }));
            }}
          >
            Imprimir etiquetas
          </Button>
        </Stack>
      )}
      {message && (
        <Alert
          severity={message.ok ? 'success' : 'error'}
          sx={{ mt: 2 }}
          role={message.ok ? 'status' : 'alert'}
        >
          {message.text}
        </Alert>
      )}
    </Paper>
  );
}
