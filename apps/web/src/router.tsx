import { type AppRoute, ROUTES } from '@balcao/core/routes';
import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteGuard } from './components/RouteGuard.tsx';
import { ErrorFallback } from './pages/ErrorFallback.tsx';

const DashboardLayout = lazy(() => import('./layout/DashboardLayout.tsx'));

function pathsOf(route: AppRoute, base = ''): string[] {
  const relative = route.link.slice(base.length).replace(/^\//, '');
  return route.match === 'prefix' ? [relative, `${relative}/*`] : [relative];
}

function routeObjects(routes: readonly AppRoute[], base = ''): RouteObject[] {
  return routes.flatMap((route) =>
    pathsOf(route, base).map(
      (path) =>
        ({
          path: path || undefined,
          index: path === '' ? true : undefined,
          element: <RouteGuard route={route} />,
        }) as RouteObject,
    ),
  );
}

const publicRoutes = ROUTES.filter((route) => route.isPublic);
const dashboardRoutes = ROUTES.filter((route) => !route.isPublic);

/** Every route of core's table is registered here; nothing else lists paths. */
export const router = createBrowserRouter([
  {
    path: '/',
    errorElement: <ErrorFallback />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      ...routeObjects(publicRoutes),
      {
        path: 'dashboard',
        element: <DashboardLayout />,
        children: routeObjects(dashboardRoutes, '/dashboard'),
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);
