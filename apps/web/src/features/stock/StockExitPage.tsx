import { can, WRITE } from '@balcao/core/routes';
import {
  STOCK_EXIT_REASON_LABELS,
  STOCK_EXIT_REASONS,
  type StockExitReason,
  stockExitInputSchema,
} from '@balcao/core/stock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/session.tsx';
import { fetchProduct, useRegisterExit, useStockSettings, useUpdateStockSettings } from './api.ts';
import { AddProductFields } from './components/AddProductFields.tsx';
import { apiIssues, ReadOnlyNotice } from './components/common.tsx';
import {
  MovementRowsTable,
  type RowErrors,
  rowErrorsOf,
  useMovementRows,
} from './components/MovementRows.tsx';
import { StockHistory } from './components/StockHistory.tsx';

type HeaderErrors = Partial<Record<'reason' | 'note', string>>;

/**
 * Saída de estoque (/dashboard/stock-movement/exit): products and quantities with a reason (perda,
 * quebra, uso interno, devolução ao fornecedor, outro: described in the note). Refused with the
 * server's "Estoque insuficiente..." unless negative stock is allowed: the switch on this page
 * (Administrador and Gerente change it). The history below starts filtered on exits.
 */
export default function StockExitPage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.stock);
  const { rows, add, update, remove, clear } = useMovementRows();
  const [errors, setErrors] = useState<RowErrors>({});
  const [headerErrors, setHeaderErrors] = useState<HeaderErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [reason, setReason] = useState<StockExitReason | ''>('');
  const [note, setNote] = useState('');
  const [document, setDocument] = useState('');
  const exit = useRegisterExit();
  const { state, show, close } = useFeedback();

  const addById = async (id: number) => {
    try {
      add(await fetchProduct(id));
      setFormError(null);
    } catch (error) {
      show({ severity: 'error', title: 'Erro ao adicionar produto', message: errorMessage(error) });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = stockExitInputSchema.safeParse({
      items: rows.map((r) => ({ productId: r.productId, variantId: r.variantId, quantity: r.quantity })),
      reason: reason || undefined,
      note,
      document,
    });
    const issues = parsed.success ? [] : parsed.error.issues;
    const rowErrors = rowErrorsOf(issues, rows);
    const header: HeaderErrors = {};
    for (const issue of issues) {
      const field = issue.path[0];
      if ((field === 'reason' || field === 'note') && !header[field]) header[field] = issue.message;
    }
    setErrors(rowErrors);
    setHeaderErrors(header);
    setFormError(rows.length === 0 ? 'Adicione ao menos um produto' : null);
    if (rows.length === 0 || !parsed.success || Object.keys(rowErrors).length > 0) return;
    exit.mutate(parsed.data, {
      onSuccess: ({ movements }) => {
        show({
          severity: 'success',
          title: 'Saída registrada com sucesso',
          message: `${movements.length} ${movements.length === 1 ? 'produto' : 'produtos'} baixados do estoque`,
        });
        clear();
        setReason('');
        setNote('');
        setDocument('');
      },
      onError: (error) => {
        setErrors(rowErrorsOf(apiIssues(error), rows));
        show({ severity: 'error', title: 'Erro ao registrar saída', message: errorMessage(error) });
      },
    });
  };

  return (
    <Box sx={{ maxWidth: 1200 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        Saída de estoque
      </Typography>
      {!canWrite && <ReadOnlyNotice />}
      <Stack sx={{ gap: 3 }}>
        <Paper
          component="form"
          aria-label="Nova saída"
          onSubmit={submit}
          noValidate
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 2, mb: 2 }}>
            <Typography component="h2" variant="h6">
              Nova saída
            </Typography>
            <NegativeStockSwitch
              clientId={clientId}
              onError={(message) =>
                show({ severity: 'error', title: 'Erro ao salvar configuração', message })
              }
            />
          </Box>
          <AddProductFields
            clientId={clientId}
            disabled={!canWrite}
            searchLabel="Produto"
            onScan={(match) => {
              add(match.product, match.variant);
              setFormError(null);
            }}
            onPick={(id) => void addById(id)}
            onNotFound={(message) => show({ severity: 'error', title: 'Produto não encontrado', message })}
          />
          <MovementRowsTable
            rows={rows}
            errors={errors}
            withCost={false}
            disabled={!canWrite || exit.isPending}
            onChange={update}
            onRemove={remove}
          />
          {formError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {formError}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 2fr 1fr' }, mt: 3 }}>
            <TextField
              select
              label="Motivo"
              required
              value={reason}
              onChange={(e) => setReason(e.target.value as StockExitReason)}
              error={Boolean(headerErrors.reason)}
              helperText={headerErrors.reason}
              disabled={!canWrite}
            >
              {STOCK_EXIT_REASONS.map((r) => (
                <MenuItem key={r} value={r}>
                  {STOCK_EXIT_REASON_LABELS[r]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={reason === 'other' ? 'Descreva o motivo' : 'Observação'}
              required={reason === 'other'}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              error={Boolean(headerErrors.note)}
              helperText={headerErrors.note}
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <TextField
              label="Documento"
              value={document}
              onChange={(e) => setDocument(e.target.value)}
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
          </Box>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
            <Button type="submit" variant="contained" color="error" disabled={!canWrite || exit.isPending}>
              {exit.isPending ? 'Registrando...' : 'Registrar saída'}
            </Button>
          </Box>
        </Paper>
        <StockHistory clientId={clientId} defaultType="exit" />
      </Stack>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}

/** "Permitir estoque negativo": the client's setting (exits and sales); Administrador and Gerente change it. */
function NegativeStockSwitch({
  clientId,
  onError,
}: {
  clientId: number | undefined;
  onError: (message: string) => void;
}) {
  const { user } = useSession();
  const settings = useStockSettings(clientId);
  const update = useUpdateStockSettings(clientId);
  const canChange = can(user?.userType.id, WRITE.settings);
  const checked = update.isPending
    ? Boolean(update.variables?.allowNegativeStock)
    : Boolean(settings.data?.allowNegativeStock);
  return (
    <FormControlLabel
      control={
        <Switch
          checked={checked}
          disabled={!canChange || settings.isPending || update.isPending}
          onChange={(e) =>
            update.mutate(
              { allowNegativeStock: e.target.checked },
              { onError: (error) => onError(errorMessage(error)) },
            )
          }
        />
      }
      label="Permitir estoque negativo"
    />
  );
}
