import { openStatusText } from '@balcao/core/workingHours';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import { useSession } from '../auth/index.ts';
import { useWorkingHoursStatus } from './api.ts';

/** The status as the top bar and the PDV say it: "Aberto · fecha às 18:00". */
function useShopStatus() {
  const { settingsChecklist, user } = useSession();
  const enabled = Boolean(settingsChecklist?.checkIsOpen);
  const { data } = useWorkingHoursStatus(enabled);
  if (!enabled || !data?.enabled) return null;
  const timeZone = user?.client.timeZone ?? data.timeZone;
  const text = openStatusText(
    {
      open: data.open,
      paused: data.paused,
      pauseReason: data.pauseReason,
      nextChange: data.nextChange ? new Date(data.nextChange) : null,
    },
    new Date(),
    timeZone,
  );
  // "Fechado (motivo) · abre às 13:00" -> the head and the rest.
  const [head, ...rest] = text.split(' · ');
  return { open: data.open, text, head, next: rest.join(' · '), reason: data.pauseReason };
}

/** Top bar: Aberto/Fechado with the next change, only with the checkIsOpen flag. */
export function ShopStatusChip() {
  const status = useShopStatus();
  if (!status) return null;
  return (
    <Chip
      data-testid="shop-status"
      size="small"
      color={status.open ? 'success' : 'default'}
      label={
        <>
          <strong>{status.open ? 'Aberto' : 'Fechado'}</strong>
          <span className="shop-status-next">
            {status.head.slice(status.open ? 'Aberto'.length : 'Fechado'.length)}
            {status.next ? ` · ${status.next}` : ''}
          </span>
        </>
      }
      title={status.text}
      sx={{
        // Fixed colours: the chip sits on the app bar in both themes (contrast above 4.5:1).
        bgcolor: status.open ? '#1b5e20' : '#ffffff',
        color: status.open ? '#ffffff' : '#212121',
        maxWidth: { xs: 110, sm: 'none' },
        '& .shop-status-next': { display: { xs: 'none', sm: 'inline' } },
      }}
    />
  );
}

/** PDV (and the other selling screens): a warning, never a block, while the shop is closed. */
export function ClosedShopWarning({
  note = 'Você ainda pode registrar vendas.',
  severity = 'warning',
}: {
  /** What the closed shop means on this screen (a phone order: refused or taken with a warning). */
  note?: string;
  severity?: 'warning' | 'error';
}) {
  const status = useShopStatus();
  if (!status || status.open) return null;
  return (
    <Alert severity={severity} data-testid="closed-warning" sx={{ mb: 2 }}>
      A loja está fechada agora{status.reason ? ` (${status.reason})` : ''}
      {status.next ? ` · ${status.next}` : ''}. {note}
    </Alert>
  );
}
