import { type AppRoute, canUse, homeFor, isAllowed, isEnabled, pageTitle } from '@balcao/core/routes';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from './components/Loading.tsx';
import { useSession } from './features/auth/session.tsx';
import { UnderConstruction } from './pages/UnderConstruction.tsx';
import { PAGES } from './pages.tsx';

// Rare: its code stays out of the first download (/login's budget).
const FlagClosedPage = lazy(() => import('./pages/FlagClosedPage.tsx'));

/** Title, session and permission checks of one route of the table, then its page. */
export function RouteGuard({ route }: { route: AppRoute }) {
  const session = useSession();
  const location = useLocation();

  useEffect(() => {
    document.title = pageTitle(route.title);
  }, [route.title]);

  const Page = PAGES[route.name];
  // The page keyed by path: /new -> /edit/{id} (same component) or /edit/1 -> /edit/2 start a fresh
  // page state. The boundary is NOT keyed: a navigation is a transition (React Router), so while the
  // next page's code loads the current page stays on screen (no spinner flash), and the next page
  // shows the moment it is ready. A new boundary would show its fallback, and React then holds the
  // revealed page back until 300 ms after that fallback appeared (its fallback throttle).
  const page = (
    <Suspense fallback={<Loading />}>
      {Page ? <Page key={location.pathname} /> : <UnderConstruction title={route.title} />}
    </Suspense>
  );
  if (route.isPublic) return page;

  if (session.redirect === '/logout') return <Navigate to="/logout" replace />;
  if (session.redirect === '/login') return <Navigate to="/login" replace />;
  if (session.authLoading) return <Loading />;
  if (!session.isLogged || !session.user)
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;

  const userTypeId = session.user.userType.id;
  if (route.name === 'home' && homeFor(userTypeId) !== '/dashboard')
    return <Navigate to={homeFor(userTypeId)} replace />;
  // A page the user may see but a setting turns off says which setting, not "no permission".
  if (isAllowed(route, userTypeId) && route.flag && !isEnabled(route, session.settingsChecklist))
    return (
      <Suspense fallback={<Loading />}>
        <FlagClosedPage title={route.title} flag={route.flag} userTypeId={userTypeId} />
      </Suspense>
    );
  if (!canUse(route, userTypeId, session.settingsChecklist))
    return <Navigate to="/not-have-permission" replace />;
  return page;
}
