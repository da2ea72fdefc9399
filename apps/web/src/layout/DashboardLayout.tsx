import { can, canUse, FINANCE, findRoute, menuFor, showsPdvInBottomBar } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import LinearProgress from '@mui/material/LinearProgress';
import Snackbar from '@mui/material/Snackbar';
import { ThemeProvider } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate, Outlet, Link as RouterLink, useLocation } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { useSession } from '../features/auth/index.ts';
import { useNotifications } from '../features/notification/index.ts';
import { PayableDueAlerts, payableDueCount, usePayableDue } from '../features/payable/index.ts';
import { BillingBanner, PrintProblems, useStationConfig } from '../features/settings/index.ts';
import { withPortugueseTexts } from '../lib/locale.ts';
import { useWaitingForPage } from '../lib/preload.ts';
import { BottomBar } from './BottomBar.tsx';
import { NotificationDrawer } from './NotificationDrawer.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TopBar } from './TopBar.tsx';

export const TOAST_MS = 3000;

/** This browser as a print station (settings/printer), loaded only when it is one. */
const StationRunner = lazy(() => import('../features/settings/printer/StationRunner.tsx'));

/**
 * Server state lives with the private shell: public pages (/login) do not download TanStack Query, and
 * the cache dies when the shell unmounts (logout), so no data of one session reaches the next.
 */
function newQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
  });
}

/** The private shell (spec 2): side menu, top bar, bottom bar on mobile, notifications, FAB. */
export default function DashboardLayout() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={withPortugueseTexts}>
        <Shell />
      </ThemeProvider>
    </QueryClientProvider>
  );
}

function Shell() {
  const session = useSession();
  const location = useLocation();
  const isMobile = useMediaQuery('(max-width:899.95px)');
  const [sidebarOpen, setSidebarOpen] = useState(true);
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { refresh } = session;
  const notifications = useNotifications(session.user?.client.id, session.token, (resources) => {
    // The session carries the WhatsApp instance too: its state changes with the webhook.
    if (resources.includes('session') || resources.includes('whatsapp')) void refresh();
  });
  // Issue 34: the open payables overdue and due today stand in the bell for who sees Financeiro.
  const payableDue = usePayableDue(can(session.user?.userType.id, FINANCE));
  const station = useStationConfig();
  // Stable, so the memoized top bar is left alone by a navigation.
  const toggleSidebar = useCallback(
    () => (isMobile ? setMobileMenuOpen((v) => !v) : setSidebarOpen((v) => !v)),
    [isMobile],
  );
  const { markAllRead } = notifications;
  const openDrawer = useCallback(() => {
    setDrawerOpen(true);
    markAllRead();
  }, [markAllRead]);

  // Opening the mobile menu hides body scrolling (spec 4).
  useEffect(() => {
    if (!isMobile || !mobileMenuOpen) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, [isMobile, mobileMenuOpen]);

  // The service worker (issue 21, vite-plugin-pwa's sw.js) is registered once logged in, so the app
  // shell and the PDV open offline after one online visit; /login loads no code for it.
  useEffect(() => {
    if ('serviceWorker' in navigator && import.meta.env.PROD)
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  }, []);

  // Navigating closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => setMobileMenuOpen(false), [location.pathname]);

  // The shell stays mounted across pages, and a page still opens on fresh data: the queries the last
  // page left behind are dropped, and the shell's own ones older than their staleTime fetched again.
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change only
  useEffect(() => {
    queryClient.removeQueries({ type: 'inactive' });
    void queryClient.refetchQueries({ type: 'active', stale: true });
  }, [location.pathname]);

  if (session.redirect) return <Navigate to={session.redirect} replace />;
  if (session.authLoading) return <Loading />;
  if (!session.isLogged || !session.user) return <Navigate to="/login" replace />;

  const user = session.user;
  const groups = menuFor(user.userType.id, session.settingsChecklist);
  const route = findRoute(location.pathname);
  const fabTarget = route?.fab ? findRoute(route.fab) : undefined;
  const showFab = fabTarget && canUse(fabTarget, user.userType.id, session.settingsChecklist);
  const toast = notifications.toasts[0];

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar
        user={user}
        unread={notifications.unread}
        standing={payableDueCount(payableDue.data)}
        onToggleSidebar={toggleSidebar}
        onOpenNotifications={openDrawer}
        sidebarOpen={!isMobile && sidebarOpen}
      />
      <SideMenu
        groups={groups}
        mobile={isMobile}
        open={isMobile ? mobileMenuOpen : sidebarOpen}
        onClose={() => setMobileMenuOpen(false)}
      />
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          minWidth: 0,
          p: { xs: 2, md: 3 },
          pb: { xs: 10, md: 3 },
        }}
      >
        <Toolbar />
        <PageProgress />
        <BillingBanner />
        <PrintProblems />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
      {showFab && fabTarget && (
        <Fab
          color="primary"
          component={RouterLink}
          to={fabTarget.link}
          aria-label={fabTarget.title}
          sx={{ position: 'fixed', right: 24, bottom: { xs: 80, md: 24 } }}
        >
          <AddIcon />
        </Fab>
      )}
      {isMobile && (
        <BottomBar
          showPdv={showsPdvInBottomBar(user.userType.id)}
          menuOpen={mobileMenuOpen}
          onMenu={() => setMobileMenuOpen((v) => !v)}
        />
      )}
      {station && session.token && (
        <Suspense fallback={null}>
          <StationRunner token={session.token} />
        </Suspense>
      )}
      <NotificationDrawer
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        items={notifications.items}
        onClear={notifications.clear}
        standing={<PayableDueAlerts due={payableDue.data} onOpen={() => setDrawerOpen(false)} />}
      />
      <Snackbar
        key={toast?.id}
        open={Boolean(toast)}
        autoHideDuration={TOAST_MS}
        onClose={(_, reason) => reason !== 'clickaway' && toast && notifications.dismissToast(toast.id)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        // Below the top bar (56 px on a phone, 64 from sm), never over its bell and account menu.
        sx={{ top: { xs: 64, sm: 76 } }}
      >
        <Alert
          severity={toast?.alertColor ?? 'info'}
          variant="filled"
          onClose={() => toast && notifications.dismissToast(toast.id)}
          data-testid="notification-toast"
        >
          {toast?.message}
        </Alert>
      </Snackbar>
    </Box>
  );
}

/** A thin bar under the top bar while a navigation waits for the next page's code (lib/preload.ts). */
function PageProgress() {
  const waiting = useWaitingForPage();
  if (!waiting) return null;
  return (
    <LinearProgress
      aria-label="Carregando a página"
      sx={{
        position: 'fixed',
        left: 0,
        right: 0,
        top: { xs: 56, sm: 64 },
        zIndex: (t) => t.zIndex.appBar + 1,
      }}
    />
  );
}
