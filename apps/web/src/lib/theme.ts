import { createTheme, getContrastRatio, type PaletteMode, type Theme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface Palette {
    extra: { light: string; dark: string };
  }
  interface PaletteOptions {
    extra?: { light: string; dark: string };
  }
}

/** The spec's palettes (9): light and dark, radius 8, soft paper shadow, outlined inputs radius 8. */
export function buildTheme(mode: PaletteMode): Theme {
  const dark = mode === 'dark';
  return createTheme({
    palette: {
      mode,
      primary: { main: dark ? '#90caf9' : '#1565c0' },
      secondary: { main: '#00796b' },
      error: { main: dark ? '#e57373' : '#c62828' },
      warning: { main: dark ? '#ffa726' : '#b45309' },
      info: { main: dark ? '#4fc3f7' : '#0277bd' },
      success: { main: dark ? '#66bb6a' : '#2e7d32' },
      background: dark ? { default: '#121212', paper: '#1e1e1e' } : { default: '#f5f7fa', paper: '#ffffff' },
      extra: dark ? { light: '#2c2c2c', dark: '#0a0a0a' } : { light: '#e3f2fd', dark: '#0d47a1' },
    },
    shape: { borderRadius: 8 },
    components: {
      // A plain router link (a sale's number in a list) reads in the theme's primary, in both modes.
      MuiCssBaseline: {
        styleOverrides: { 'a:not([class])': { color: dark ? '#90caf9' : '#1565c0' } },
      },
      // Every toggle (R$/%, Minhas/Todas, 58/80 mm): the unpicked side in the text colour, the picked one
      // filled, so both read at 4.5:1 in either mode (issue 30 item 22, axe color-contrast).
      MuiToggleButton: {
        styleOverrides: {
          root: ({ theme }) => ({
            color: theme.palette.text.primary,
            fontWeight: 600,
            '&.Mui-selected, &.Mui-selected:hover': {
              color: theme.palette.primary.contrastText,
              backgroundColor: theme.palette.primary.main,
            },
          }),
        },
      },
      MuiPaper: {
        styleOverrides: {
          root: { border: 'none', backgroundImage: 'none' },
          elevation1: { boxShadow: dark ? '0 1px 3px rgba(0,0,0,0.5)' : '0 1px 4px rgba(16,24,40,0.08)' },
        },
      },
      MuiOutlinedInput: {
        styleOverrides: {
          root: {
            borderRadius: 8,
            ...(dark
              ? {
                  backgroundColor: '#2a2a2a',
                  '& .MuiOutlinedInput-notchedOutline': { borderColor: '#616161' },
                  '&:hover .MuiOutlinedInput-notchedOutline': { borderColor: '#9e9e9e' },
                  '&.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: '#90caf9' },
                }
              : {}),
          },
        },
      },
      // A filled alert (the snackbars): MUI paints the dark mode's on the tone's `dark` but picks its text
      // for the `main` (near black on #a05050: 3.5:1). The text here is the better of white and near
      // black on the colour actually painted (the walk of issue 35, axe color-contrast).
      MuiAlert: {
        styleOverrides: {
          filled: ({ theme, ownerState }) => {
            const tone = theme.palette[ownerState.color ?? ownerState.severity ?? 'success'];
            const bg = theme.palette.mode === 'dark' ? tone.dark : tone.main;
            const black = 'rgba(0, 0, 0, 0.87)';
            return { color: getContrastRatio('#fff', bg) >= getContrastRatio('#000', bg) ? '#fff' : black };
          },
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { textTransform: 'none' } },
      },
    },
  });
}

export function initialThemeMode(): PaletteMode {
  const stored = localStorage.getItem('balcao:theme');
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
