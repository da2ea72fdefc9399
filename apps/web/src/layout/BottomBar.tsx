import HomeIcon from '@mui/icons-material/Home';
import MenuIcon from '@mui/icons-material/Menu';
import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import { Link as RouterLink, useLocation } from 'react-router';
import { preloadProps } from '../lib/preload.ts';

type Props = { showPdv: boolean; menuOpen: boolean; onMenu: () => void };

/** Mobile bottom bar (spec 2): Início, PDV (to the waiter PDV; hidden for 3 types) and Menu. */
export function BottomBar({ showPdv, menuOpen, onMenu }: Props) {
  const { pathname } = useLocation();
  const value = menuOpen
    ? 'menu'
    : pathname === '/dashboard/sale/waiter-pdv'
      ? 'pdv'
      : pathname === '/dashboard'
        ? 'home'
        : null;
  return (
    <Paper
      component="nav"
      aria-label="Barra inferior"
      elevation={3}
      // Above the overlay menu (a drawer), below dialogs: a dialog's buttons at the foot of a phone's
      // screen (the waiter PDV's add-ons) are never under the bar.
      sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: (t) => t.zIndex.drawer + 1 }}
      data-testid="bottom-bar"
    >
      <BottomNavigation showLabels value={value}>
        <BottomNavigationAction
          label="Início"
          value="home"
          icon={<HomeIcon />}
          component={RouterLink}
          to="/dashboard"
          {...preloadProps('home', pathname === '/dashboard')}
        />
        {showPdv && (
          <BottomNavigationAction
            label="PDV"
            value="pdv"
            icon={<PointOfSaleIcon />}
            component={RouterLink}
            to="/dashboard/sale/waiter-pdv"
            {...preloadProps('sale-waiter-pdv', pathname === '/dashboard/sale/waiter-pdv')}
          />
        )}
        <BottomNavigationAction label="Menu" value="menu" icon={<MenuIcon />} onClick={onMenu} />
      </BottomNavigation>
    </Paper>
  );
}
