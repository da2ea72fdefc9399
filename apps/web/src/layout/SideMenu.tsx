import type { MenuEntry } from '@balcao/core/routes';
import CloseIcon from '@mui/icons-material/Close';
import HomeIcon from '@mui/icons-material/Home';
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import { preloadProps } from '../lib/preload.ts';

export const SIDEBAR_WIDTH = 240;

type Props = { groups: MenuEntry[]; mobile: boolean; open: boolean; onClose: () => void };

/** Side menu (spec 2): 240 px on desktop, a full-screen overlay on mobile; groups from core's table. */
export function SideMenu({ groups, mobile, open, onClose }: Props) {
  const { pathname } = useLocation();
  const content = (
    <Box component="nav" aria-label="Menu principal" sx={{ overflowY: 'auto', pb: 2 }}>
      <List dense>
        <ListItem disablePadding>
          <ListItemButton
            component={RouterLink}
            to="/dashboard"
            {...preloadProps('home', '/dashboard', pathname)}
            selected={pathname === '/dashboard'}
          >
            <ListItemIcon>
              <HomeIcon />
            </ListItemIcon>
            <ListItemText primary="Início" />
          </ListItemButton>
        </ListItem>
      </List>
      {groups.map(({ group, items }) => (
        <List
          key={group}
          dense
          aria-label={group}
          subheader={
            <ListSubheader component="li" disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
              {group}
            </ListSubheader>
          }
        >
          {items.map((item) => (
            <ListItem key={item.name} disablePadding>
              <ListItemButton
                component={RouterLink}
                to={item.link}
                {...preloadProps(item.name, item.link, pathname)}
                selected={pathname === item.link}
                sx={{ pl: 3 }}
              >
                <ListItemText primary={item.menuLabel ?? item.title} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ))}
      <List dense>
        <ListItem disablePadding>
          <ListItemButton component={RouterLink} to="/logout">
            <ListItemIcon>
              <LogoutIcon />
            </ListItemIcon>
            <ListItemText primary="Sair" />
          </ListItemButton>
        </ListItem>
      </List>
    </Box>
  );

  if (mobile) {
    return (
      <Drawer
        open={open}
        onClose={onClose}
        sx={{ zIndex: (t) => t.zIndex.appBar + 1 }}
        slotProps={{ paper: { sx: { width: '100%' }, 'data-testid': 'mobile-menu' } as object }}
      >
        <Toolbar sx={{ justifyContent: 'space-between' }}>
          <Typography variant="h6" component="p">
            Balcão
          </Typography>
          <IconButton aria-label="Fechar menu" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Toolbar>
        {content}
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="persistent"
      open={open}
      sx={{ width: open ? SIDEBAR_WIDTH : 0, flexShrink: 0, '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH } }}
      slotProps={{ paper: { 'data-testid': 'side-menu' } as object }}
    >
      <Toolbar />
      {content}
    </Drawer>
  );
}
