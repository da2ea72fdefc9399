import type { SessionUser } from '@balcao/core/session';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import MenuIcon from '@mui/icons-material/Menu';
import NotificationsIcon from '@mui/icons-material/Notifications';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { lazy, memo, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useThemeMode } from '../components/ThemeModeProvider.tsx';
import { ShopStatusChip } from '../features/settings/index.ts';

const ChangePasswordDialog = lazy(() =>
  import('../features/user/ChangePasswordDialog.tsx').then((m) => ({ default: m.ChangePasswordDialog })),
);

type Props = {
  user: SessionUser;
  unread: number;
  /** Things standing in the bell (payables due, issue 34): a dot when there is no unread notice. */
  standing?: number;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onOpenNotifications: () => void;
};

/** Top bar (spec 2): back, sidebar toggle, light/dark toggle, bell with badge, avatar menu with Sair. */
/**
 * Memoized, and without a router hook (they re-render on every navigation): a page switch leaves the
 * top bar alone. Back is the browser's history, as the router's navigate(-1) is.
 */
export const TopBar = memo(function TopBar({
  user,
  unread,
  standing = 0,
  sidebarOpen,
  onToggleSidebar,
  onOpenNotifications,
}: Props) {
  const { mode, toggle } = useThemeMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const initials = user.name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

  return (
    <AppBar position="fixed" color="primary" enableColorOnDark sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      {/* On a phone the shop's name keeps room (issue 30: it was cut to "K…"): tighter gutters, and the
          menu toggle is the bottom bar's "Menu" there. */}
      <Toolbar sx={{ gap: { xs: 0, sm: 0.5 }, px: { xs: 0.5, sm: 2 } }}>
        <Tooltip title="Voltar">
          <IconButton color="inherit" aria-label="Voltar" onClick={() => window.history.back()}>
            <ArrowBackIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={sidebarOpen ? 'Recolher menu' : 'Abrir menu'}>
          <IconButton
            color="inherit"
            aria-label="Alternar menu lateral"
            onClick={onToggleSidebar}
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
          >
            <MenuIcon />
          </IconButton>
        </Tooltip>
        {user.client.logoUrl && (
          <Box
            component="img"
            src={user.client.logoUrl}
            alt={`Logotipo ${user.client.name}`}
            data-testid="topbar-logo"
            sx={{
              display: { xs: 'none', sm: 'block' },
              height: 32,
              maxWidth: 96,
              objectFit: 'contain',
              ml: 1,
              borderRadius: 0.5,
              bgcolor: '#fff',
              p: 0.25,
            }}
          />
        )}
        <Typography
          variant="h6"
          component="p"
          noWrap
          title={user.client.logoUrl ? user.client.name : undefined}
          sx={{
            flexGrow: 1,
            ml: { xs: 0.5, sm: 1 },
            fontWeight: 700,
            minWidth: 0,
            fontSize: { xs: '1.05rem', sm: undefined },
          }}
          data-testid="topbar-shop-name"
        >
          {user.client.logoUrl ? user.client.name : 'Balcão'}
        </Typography>
        <ShopStatusChip />
        <Tooltip title={mode === 'light' ? 'Tema escuro' : 'Tema claro'}>
          <IconButton
            color="inherit"
            aria-label={mode === 'light' ? 'Ativar tema escuro' : 'Ativar tema claro'}
            onClick={toggle}
            data-testid="theme-toggle"
          >
            {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
          </IconButton>
        </Tooltip>
        <Tooltip title="Notificações">
          <IconButton
            color="inherit"
            aria-label="Notificações"
            onClick={onOpenNotifications}
            data-testid="bell"
          >
            <Badge
              badgeContent={unread > 0 ? unread : standing}
              color="error"
              variant={unread === 0 && standing > 0 ? 'dot' : 'standard'}
              data-testid="bell-badge"
            >
              <NotificationsIcon />
            </Badge>
          </IconButton>
        </Tooltip>
        <IconButton
          color="inherit"
          aria-label="Conta do usuário"
          aria-haspopup="menu"
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ ml: { xs: 0, sm: 0.5 } }}
        >
          <Avatar
            src={user.profilePhotoWhatsapp ?? undefined}
            alt={user.name}
            sx={{ width: 32, height: 32, bgcolor: '#00695c', color: '#ffffff', fontSize: 14 }}
          >
            {initials}
          </Avatar>
        </IconButton>
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          <Box sx={{ px: 2, py: 1 }}>
            <ListItemText primary={user.name} secondary={`${user.userType.name} · ${user.client.name}`} />
          </Box>
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setPasswordOpen(true);
            }}
          >
            Alterar senha
          </MenuItem>
          <MenuItem component={RouterLink} to="/logout" onClick={() => setAnchor(null)}>
            Sair
          </MenuItem>
        </Menu>
        {passwordOpen && (
          <Suspense fallback={null}>
            <ChangePasswordDialog open onClose={() => setPasswordOpen(false)} />
          </Suspense>
        )}
      </Toolbar>
    </AppBar>
  );
});
