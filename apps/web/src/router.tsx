import { type AppRoute, ROUTES } from '@balcao/core/routes';
import { lazy } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { ErrorBoundary } from './pages/ErrorFallback.tsx';
import { RouteGuard } from './RouteGuard.tsx';

const DashboardLayout = lazy(() => import('./layout/DashboardLayout.tsx'));

function pathsOf(route: AppRoute, base = ''): string[] {
  const relative = route.link.slice(base.length).replace(/^\//, '');
  return route.match === 'prefix' ? [relative, `${relative}/*`] : [relative];
}

function routeObjects(routes: readonly AppRoute[], base = ''): RouteObject[] {
  return routes.flatMap((route) =>
    pathsOf(route, base).map((path) =>
      path === ''
        ? { index: true, element: <RouteGuard route={route} /> }
        : { path, element: <RouteGuard route={route} /> },
    ),
  );
}

const publicRoutes = ROUTES.filter((route) => route.isPublic);
const dashboardRoutes = ROUTES.filter((route) => !route.isPublic);

/** Every route of core's table is registered here; nothing else lists paths. */
const ROUTE_TREE: RouteObject[] = [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  ...routeObjects(publicRoutes),
  { path: 'dashboard', element: <DashboardLayout />, children: routeObjects(dashboardRoutes, '/dashboard') },
  { path: '*', element: <Navigate to="/404" replace /> },
];

/**
 * Declarative routing (BrowserRouter + useRoutes): the data router would add ~18 KB gzip to every page,
 * /login included. Unknown errors land in the spec's fallback; it resets when the path changes. Reset,
 * not keyed by the path: a key remounted the whole private shell on every click (a new query cache, a
 * new socket, every shell query again).
 */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(ROUTE_TREE);
  return <ErrorBoundary resetKey={location.pathname}>{element}</ErrorBoundary>;
}
