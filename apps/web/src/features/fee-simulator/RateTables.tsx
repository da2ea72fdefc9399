import { formatDateBr } from '@balcao/core/date';
import { ANTICIPATION_MODEL_LABELS, type FeeTable } from '@balcao/core/fees';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useDeleteFeeTable, useFeeSettings, useSaveFeeSettings } from './api.ts';
import { RateTableDialog } from './RateTableDialog.tsx';

/**
 * The shop's own rate tables (saved from presets or blank), the active one and the PDV's surcharge
 * switch (off by default). Who may not write sees them without the buttons.
 */
export function RateTables({
  tables,
  canWrite,
  show,
}: {
  tables: FeeTable[];
  canWrite: boolean;
  show: (feedback: Feedback) => void;
}) {
  const [editing, setEditing] = useState<FeeTable | 'new' | null>(null);
  const settings = useFeeSettings();
  const saveSettings = useSaveFeeSettings();
  const deletion = useDeleteFeeTable();
  const removal = useConfirmDelete<FeeTable>({
    title: () => 'Excluir tabela de taxas',
    message: (t) => `Deseja excluir a tabela ${t?.name ?? ''}?`,
    remove: (t, callbacks) => deletion.mutate({ params: { id: t.id } }, callbacks),
    feedback: { show, done: () => 'Tabela de taxas excluída', failed: 'Não foi possível excluir a tabela' },
  });

  const current = settings.data;
  const change = (patch: { activeTableId?: number | null; pdvSurcharge?: boolean }) => {
    if (!current) return;
    saveSettings.mutate(
      {
        body: {
          activeTableId: patch.activeTableId !== undefined ? patch.activeTableId : current.activeTableId,
          pdvSurcharge: patch.pdvSurcharge ?? current.pdvSurcharge,
          updatedAt: current.updatedAt ?? undefined,
        },
      },
      {
        onSuccess: () => show({ severity: 'success', title: 'Configuração salva' }),
        onError: (error) =>
          show({ severity: 'error', title: 'Não foi possível salvar', message: errorMessage(error) }),
      },
    );
  };

  return (
    <Paper
      component="section"
      aria-labelledby="fee-tables-title"
      sx={{ p: 2, display: 'grid', gap: 2, minWidth: 0 }}
    >
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <Typography id="fee-tables-title" variant="h6" component="h2">
          Tabelas de taxas da loja
        </Typography>
        {canWrite && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            Nova tabela
          </Button>
        )}
      </Stack>
      {tables.length === 0 ? (
        <Typography color="text.secondary">
          Nenhuma tabela salva. Os modelos das adquirentes já podem ser simulados; salve um como tabela da
          loja para editar as taxas do seu contrato.
        </Typography>
      ) : (
        <ListTable
          label="Tabelas de taxas da loja"
          head={['Nome', 'Adquirente', 'Data das taxas', 'Antecipação', 'Parcelas', '']}
        >
          {tables.map((t) => (
            <TableRow key={t.id}>
              <TableCell>
                {t.name}
                {current?.activeTableId === t.id && (
                  <Chip size="small" label="Ativa" color="primary" sx={{ ml: 1 }} />
                )}
              </TableCell>
              <TableCell>
                {t.acquirer}
                {!t.verified && <Chip size="small" label="Não verificada" color="warning" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>{formatDateBr(t.ratesDate)}</TableCell>
              <TableCell>
                {ANTICIPATION_MODEL_LABELS[t.anticipationModel]}
                {t.anticipationModel !== 'none'
                  ? ` ${String(t.anticipationRate).replace('.', ',')}% a.m.`
                  : ''}
              </TableCell>
              <TableCell>até {t.creditRates.length}x</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {canWrite && (
                  <>
                    <Tooltip title="Editar">
                      <IconButton aria-label={`Editar ${t.name}`} onClick={() => setEditing(t)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title="Excluir">
                      <IconButton aria-label={`Excluir ${t.name}`} onClick={() => removal.ask(t)}>
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      {current && (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            select
            label="Tabela ativa"
            value={current.activeTableId ?? ''}
            onChange={(e) => change({ activeTableId: e.target.value === '' ? null : Number(e.target.value) })}
            disabled={!canWrite || saveSettings.isPending}
            helperText="A do PDV e da tabela de balcão"
            sx={{ minWidth: 260 }}
          >
            <MenuItem value="">Nenhuma</MenuItem>
            {tables.map((t) => (
              <MenuItem key={t.id} value={t.id}>
                {t.name}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={
              <Switch
                checked={current.pdvSurcharge}
                onChange={(e) => change({ pdvSurcharge: e.target.checked })}
                disabled={!canWrite || saveSettings.isPending}
              />
            }
            label="Mostrar no PDV o acréscimo de cada parcela"
          />
        </Box>
      )}
      {editing && (
        <RateTableDialog
          table={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(title) => {
            setEditing(null);
            show({ severity: 'success', title });
          }}
        />
      )}
      {removal.dialog}
    </Paper>
  );
}
