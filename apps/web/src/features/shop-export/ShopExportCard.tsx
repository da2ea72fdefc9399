import { shopExportApi } from '@balcao/core/endpoints/shop-export';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { download } from '../../lib/client.ts';
import { useSession } from '../auth/index.ts';
import { ShopDeletion } from './ShopDeletion.tsx';

const SHOP_EXPORT_FAILED = 'Não foi possível exportar os dados. Tente de novo.';

/**
 * "Exportar todos os dados" (issue 37): the Administrador downloads the shop's whole data as one ZIP
 * (every table as CSV, the uploaded files, a README of the columns), which `npm run import-shop`
 * reads into another Balcão. Shown to the Administrador only.
 */
export function ShopExportCard() {
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!can(user?.userType.id, WRITE.system)) return null;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await download(shopExportApi.download, {}, 'balcao-dados.zip', SHOP_EXPORT_FAILED);
    } catch (e) {
      setError(e instanceof Error ? e.message : SHOP_EXPORT_FAILED);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper
      sx={{ p: { xs: 2, sm: 3 }, mt: 3, maxWidth: 960 }}
      component="section"
      aria-labelledby="shop-export-title"
    >
      <Typography variant="h6" component="h2" id="shop-export-title" sx={{ mb: 1 }}>
        Seus dados
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Baixe um arquivo ZIP com todas as tabelas da loja em CSV, as imagens enviadas e a descrição das
        colunas. O mesmo arquivo pode ser importado em outro Balcão.
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      )}
      <Button variant="outlined" onClick={run} disabled={busy}>
        {busy ? 'Exportando…' : 'Exportar todos os dados'}
      </Button>
      <ShopDeletion />
    </Paper>
  );
}
