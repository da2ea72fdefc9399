import {
  formatGrams,
  SCALE_PROTOCOL_LABELS,
  SCALE_PROTOCOLS,
  SCALE_STATUS_TEXT,
  type ScaleProtocol,
} from '@balcao/core/scale/serialScale';
import ScaleIcon from '@mui/icons-material/Scale';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { LiveScale } from './liveScale.ts';

/**
 * The PDV's scale strip: the live weight and its state, from a print agent's scale or one connected
 * here through Web Serial (Chromium).
 */
export function LiveScalePanel({ scale }: { scale: LiveScale }) {
  if (!scale.available && !scale.connected) return null;
  const r = scale.reading;
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 1 }}
      aria-label="Balança"
      role="group"
    >
      <ScaleIcon color="action" aria-hidden />
      {!scale.connected ? (
        <>
          <TextField
            select
            size="small"
            label="Protocolo"
            value={scale.protocol}
            onChange={(e) => scale.setProtocol(e.target.value as ScaleProtocol)}
            sx={{ minWidth: 150 }}
          >
            {SCALE_PROTOCOLS.map((p) => (
              <MenuItem key={p} value={p}>
                {SCALE_PROTOCOL_LABELS[p]}
              </MenuItem>
            ))}
          </TextField>
          <Button size="small" onClick={() => void scale.connect()}>
            Conectar balança
          </Button>
        </>
      ) : (
        <>
          <Typography variant="h6" component="output" data-testid="scale-weight" aria-live="polite">
            {r?.status === 'stable' ? formatGrams(r.grams) : '—'}
          </Typography>
          {r && (
            <Chip
              size="small"
              color={r.status === 'stable' ? 'success' : 'warning'}
              label={SCALE_STATUS_TEXT[r.status]}
              data-testid="scale-status"
            />
          )}
          {scale.source === 'serial' ? (
            <Button size="small" onClick={() => void scale.disconnect()}>
              Desconectar
            </Button>
          ) : scale.agents.length > 1 ? (
            <TextField
              select
              size="small"
              label="Balança do agente"
              value={scale.agentId ?? ''}
              onChange={(e) => scale.chooseAgent(Number(e.target.value))}
              sx={{ minWidth: 150 }}
            >
              {scale.agents.map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  {a.name}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Balança do agente {scale.agents[0]?.name}
            </Typography>
          )}
        </>
      )}
      {scale.error && (
        <Typography variant="body2" color="error">
          {scale.error}
        </Typography>
      )}
    </Stack>
  );
}
