import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import TableMenuPage from './features/table-menu/TableMenuPage.tsx';

/**
 * The QR-code menu's own entry (mesa.html, served by the API for /mesa/*; issue 35): React and the
 * table page only, none of the app shell (MUI, the router, the session, the dashboard), so a phone on
 * 4G shows the menu within the issue's 1.5 s (bench/table-menu.ts).
 */
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <TableMenuPage />
  </StrictMode>,
);
