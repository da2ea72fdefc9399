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
import { memo } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { preloadProps } from '../lib/preload.ts';

const SIDEBAR_WIDTH = 240;

/**
 * One menu item. Memoized: a navigation re-renders only the two items whose selection changes, not
 * the ~40 buttons and links of the menu (a third of the work of a page switch, bench/RESULTS.md).
 */
const MenuLink = memo(function MenuLink({
  name,
  link,
  label,
  selected,
}: {
  name: string;
  link: string;
  label: string;
  selected: boolean;
}) {
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={link}
        {...preloadProps(name, selected)}
        selected={selected}
        sx={{ pl: 3 }}
      >
        <ListItemText primary={label} />
      </ListItemButton>
    </ListItem>
  );
});

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
            {...preloadProps('home', pathname === '/dashboard')}
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
            <MenuLink
              key={item.name}
              name={item.name}
              link={item.link}
              label={item.menuLabel ?? item.title}
              selected={pathname === item.link}
            />
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
