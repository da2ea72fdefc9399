import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ThemeModeProvider } from './components/ThemeModeProvider.tsx';
import { SessionProvider } from './features/auth/session.tsx';
import { AppRoutes } from './router.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeModeProvider>
      <SessionProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </SessionProvider>
    </ThemeModeProvider>
  </StrictMode>,
);
