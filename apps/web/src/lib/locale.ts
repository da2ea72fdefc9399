import { ptBR } from '@mui/material/locale';
import type { Theme } from '@mui/material/styles';

type Components = Record<string, { defaultProps?: object } | undefined>;

/**
 * The app's theme with every MUI component's built-in texts in Brazilian Portuguese (autocomplete
 * "Abrir"/"Fechar"/"Sem opções", pagination, ...): MUI's ptBR locale. Applied by the logged shell
 * (layout/DashboardLayout.tsx), so /login's bundle does not carry it.
 */
export function withPortugueseTexts(theme: Theme): Theme {
  const own = (theme.components ?? {}) as Components;
  const texts = (ptBR.components ?? {}) as Components;
  const components: Components = { ...own };
  for (const [name, part] of Object.entries(texts)) {
    components[name] = {
      ...part,
      ...own[name],
      defaultProps: { ...part?.defaultProps, ...own[name]?.defaultProps },
    };
  }
  return { ...theme, components: components as Theme['components'] };
}
