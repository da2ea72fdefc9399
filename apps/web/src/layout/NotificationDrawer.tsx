import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { AppNotification } from '../features/notification/index.ts';
import { formatTime } from '../lib/format.ts';

const NOTIFICATION_DRAWER_WIDTH = 300;

type Props = {
  open: boolean;
  onClose: () => void;
  items: AppNotification[];
  onClear: () => void;
  /** What stands in the bell while it lasts (the payables due), above the notices. */
  standing?: ReactNode;
};

/** Notification drawer (spec 2): 300 px wide. */
export function NotificationDrawer({ open, onClose, items, onClear, standing }: Props) {
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the fixed top bar (whose z-index is the drawers' + 1, to sit over the side menu): the
      // drawer's header and "Limpar" stay clickable. Like any modal.
      sx={{ zIndex: (t) => t.zIndex.modal }}
      // The drawer's paper is a dialog: named by its heading (axe aria-dialog-name).
      slotProps={{
        paper: {
          sx: { width: NOTIFICATION_DRAWER_WIDTH, maxWidth: '100%' },
          'aria-labelledby': 'notification-drawer-title',
        },
      }}
    >
      <Box sx={{ p: 2 }} data-testid="notification-drawer">
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Typography component="h2" variant="h6" id="notification-drawer-title">
            Notificações
          </Typography>
          {items.length > 0 && (
            <Button size="small" onClick={onClear}>
              Limpar
            </Button>
          )}
        </Stack>
        {standing}
        {items.length === 0 ? (
          <Typography color="text.secondary">Nenhuma notificação por aqui.</Typography>
        ) : (
          <Stack spacing={1}>
            {items.map((item) => (
              <Alert key={item.id} severity={item.alertColor} variant="outlined">
                {item.message}
                <Typography variant="caption" component="div" color="text.secondary">
                  {formatTime(item.at)}
                </Typography>
              </Alert>
            ))}
          </Stack>
        )}
      </Box>
    </Drawer>
  );
}
