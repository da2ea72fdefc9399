import { can, WRITE } from '@balcao/core/routes';
import {
  SCALE_CODE_MAX,
  SCALE_CODE_MIN,
  SCALE_LABEL_CONTENT_LABELS,
  SCALE_LABEL_CONTENTS,
  SCALE_ROUNDING_LABELS,
  SCALE_ROUNDINGS,
  type ScaleSettings,
} from '@balcao/core/scale/weighedLabel';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { useSession } from '../auth/index.ts';
import { useSaveScaleSettings, useScaleSettings } from './api.ts';

const CODE_LENGTHS = Array.from(
  { length: SCALE_CODE_MAX - SCALE_CODE_MIN + 1 },
  (_, i) => SCALE_CODE_MIN + i,
);

/** "2 CCCCC VVVVV D": what a label of this layout looks like. */
function layoutPattern(s: ScaleSettings): string {
  const value = s.content === 'weight' ? 'G' : 'P';
  return `2 ${'C'.repeat(s.codeLength)} ${value.repeat(11 - s.codeLength)} D`;
}

/**
 * Configurações > Sistema, "Balança e etiquetas de peso" (issue 36): the layout of the scale's EAN-13
 * labels and its rounding, saved on its own. Written by the Administrador; the others see it.
 */
export function ScaleSettingsSection() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.system);
  const query = useScaleSettings();
  const save = useSaveScaleSettings();
  const feedback = useFeedback();
  const [values, setValues] = useState<ScaleSettings | null>(null);
  useEffect(() => {
    if (query.data) setValues(query.data);
  }, [query.data]);
  if (!values) return null;
  const set = (changes: Partial<ScaleSettings>) => setValues({ ...values, ...changes });
  return (
    <Paper component="section" aria-label="Balança e etiquetas de peso" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Balança e etiquetas de peso
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Etiquetas EAN-13 que começam com 2, impressas pela balança (Toledo, Filizola, Urano): o PDV lê o
        código do produto e o peso ou o preço. Cadastre o código da balança em cada produto vendido por kg.
      </Typography>
      <Grid container spacing={2}>
        <Grid size={12}>
          <FormControlLabel
            control={
              <Switch
                checked={values.enabled}
                disabled={!canWrite}
                onChange={(e) => set({ enabled: e.target.checked })}
              />
            }
            label="Ler etiquetas de balança no PDV"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField
            select
            fullWidth
            label="Dígitos do código do produto"
            value={values.codeLength}
            disabled={!canWrite}
            onChange={(e) => set({ codeLength: Number(e.target.value) })}
          >
            {CODE_LENGTHS.map((n) => (
              <MenuItem key={n} value={n}>
                {n}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField
            select
            fullWidth
            label="A etiqueta traz"
            value={values.content}
            disabled={!canWrite}
            onChange={(e) => set({ content: e.target.value as ScaleSettings['content'] })}
          >
            {SCALE_LABEL_CONTENTS.map((c) => (
              <MenuItem key={c} value={c}>
                {SCALE_LABEL_CONTENT_LABELS[c]}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField
            select
            fullWidth
            label="Arredondamento da balança"
            value={values.rounding}
            disabled={!canWrite}
            helperText="O PDV calcula o valor dos itens por kg do mesmo jeito"
            onChange={(e) => set({ rounding: e.target.value as ScaleSettings['rounding'] })}
          >
            {SCALE_ROUNDINGS.map((r) => (
              <MenuItem key={r} value={r}>
                {SCALE_ROUNDING_LABELS[r]}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={12}>
          <Typography variant="body2" sx={{ fontFamily: 'monospace' }} aria-label="Formato da etiqueta">
            {layoutPattern(values)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            C = código do produto,{' '}
            {values.content === 'weight' ? 'G = peso em gramas' : 'P = preço total em centavos'}, D = dígito
            verificador (conferido na leitura)
          </Typography>
        </Grid>
        {canWrite && (
          <Grid size={12}>
            <Button
              variant="contained"
              disabled={save.isPending}
              onClick={() =>
                save.mutate(
                  { body: values },
                  {
                    onSuccess: () =>
                      feedback.show({ severity: 'success', title: 'Configuração da balança salva' }),
                    onError: (error) =>
                      feedback.show({
                        severity: 'error',
                        title: 'Não foi possível salvar',
                        message: error.message,
                      }),
                  },
                )
              }
            >
              Salvar balança
            </Button>
          </Grid>
        )}
      </Grid>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Paper>
  );
}
