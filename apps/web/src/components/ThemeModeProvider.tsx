import CssBaseline from '@mui/material/CssBaseline';
import type { PaletteMode } from '@mui/material/styles';
import { ThemeProvider } from '@mui/material/styles';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { THEME_KEY } from '../lib/persist.ts';
import { buildTheme, initialThemeMode } from '../lib/theme.ts';

type ThemeMode = { mode: PaletteMode; toggle: () => void; setMode: (mode: PaletteMode) => void };
const ThemeModeContext = createContext<ThemeMode>({ mode: 'light', toggle: () => {}, setMode: () => {} });

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setModeState] = useState<PaletteMode>(initialThemeMode);
  const setMode = useCallback((next: PaletteMode) => {
    localStorage.setItem(THEME_KEY, next);
    setModeState(next);
  }, []);
  const toggle = useCallback(() => setMode(mode === 'light' ? 'dark' : 'light'), [mode, setMode]);
  const theme = useMemo(() => buildTheme(mode), [mode]);
  const value = useMemo(() => ({ mode, toggle, setMode }), [mode, toggle, setMode]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export const useThemeMode = () => useContext(ThemeModeContext);
