import { plural } from '@balcao/core/plural';
import { can, WRITE } from '@balcao/core/routes';
import {
  STOCK_EXIT_REASON_LABELS,
  STOCK_EXIT_REASONS,
  type StockExitInputParsed,
  type StockExitReason,
  stockExitInputSchema,
} from '@balcao/core/stock';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { Form, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { useRegisterExit, useStockSettings, useUpdateStockSettings } from './api.ts';
import { StockPage, useStockPage } from './components/common.tsx';
import {
  MovementItems,
  type MovementRow,
  missingVariants,
  rowsInput,
  useMovementRows,
} from './components/MovementRows.tsx';

type Values = { items: MovementRow[]; reason: StockExitReason | ''; note: string; document: string };
const EMPTY: Values = { items: [], reason: '', note: '', document: '' };

/**
 * Saída de estoque (/dashboard/stock-movement/exit): products and quantities with a reason (perda,
 * quebra, uso interno, devolução ao fornecedor, outro: described in the note). Refused with the
 * server's "Estoque insuficiente..." unless negative stock is allowed: the switch on this page
 * (Administrador and Gerente change it). The history below starts filtered on exits.
 */
export default function StockExitPage() {
  const page = useStockPage();
  const { clientId, canWrite, show } = page;
  const exit = useRegisterExit();
  const form = useAppForm({
    schema: stockExitInputSchema,
    defaultValues: EMPTY,
    toInput: (values: Values) => ({
      items: rowsInput(values.items, false),
      reason: values.reason || undefined,
      note: values.note,
      document: values.document,
    }),
    check: (values) => missingVariants(values.items),
  });
  const movement = useMovementRows(form, show);
  const { errors } = form.formState;
  const reason = useWatch({ control: form.control, name: 'reason' });

  const submit = async (values: StockExitInputParsed) => {
    const { movements } = await exit.mutateAsync({ body: values });
    show({
      severity: 'success',
      title: 'Saída registrada com sucesso',
      message: `${plural(movements.length, 'produto baixado', 'produtos baixados')} do estoque`,
    });
    form.reset(EMPTY);
  };

  return (
    <StockPage page={page} title="Saída de estoque" historyType="exit">
      <Form
        form={form}
        onSubmit={submit}
        onError={(message) => show({ severity: 'error', title: 'Erro ao registrar saída', message })}
        aria-label="Nova saída"
      >
        <Paper sx={{ p: { xs: 2, sm: 3 } }}>
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
          <MovementItems
            clientId={clientId}
            canWrite={canWrite}
            searchLabel="Produto"
            withCost={false}
            movement={movement}
            errors={errors.items}
            submitting={form.formState.isSubmitting}
            show={show}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 2fr 1fr' }, mt: 3 }}>
            <FormTextField
              control={form.control}
              name="reason"
              select
              label="Motivo"
              required
              disabled={!canWrite}
            >
              {STOCK_EXIT_REASONS.map((r) => (
                <MenuItem key={r} value={r}>
                  {STOCK_EXIT_REASON_LABELS[r]}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField
              control={form.control}
              name="note"
              label={reason === 'other' ? 'Descreva o motivo' : 'Observação'}
              required={reason === 'other'}
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <FormTextField
              control={form.control}
              name="document"
              label="Documento"
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
          </Box>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
            <SubmitButton color="error" busyLabel="Registrando..." disabled={!canWrite}>
              Registrar saída
            </SubmitButton>
          </Box>
        </Paper>
      </Form>
    </StockPage>
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
  const update = useUpdateStockSettings();
  const canChange = can(user?.userType.id, WRITE.settings);
  const checked = update.isPending
    ? Boolean(update.variables?.body.allowNegativeStock)
    : Boolean(settings.data?.allowNegativeStock);
  return (
    <FormControlLabel
      control={
        <Switch
          checked={checked}
          disabled={!canChange || settings.isPending || update.isPending}
          onChange={(e) =>
            update.mutate(
              { params: { clientId: clientId ?? 0 }, body: { allowNegativeStock: e.target.checked } },
              { onError: (error) => onError(errorMessage(error)) },
            )
          }
        />
      }
      label="Permitir estoque negativo"
    />
  );
}
