import { shopExportApi } from '@balcao/core/endpoints/shop-export';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queryOf, useCall } from '../../lib/client.ts';
import { formatDate } from '../../lib/format.ts';

const FAILED = 'Não foi possível concluir. Tente de novo.';
const messageOf = (e: unknown) => (e instanceof Error ? e.message : FAILED);

/**
 * LGPD eliminação (issue 37): the Administrador asks for the shop's deletion with the password; it
 * happens after the grace period unless canceled here.
 */
export function ShopDeletion() {
  const query = useQuery(queryOf(shopExportApi.deletion));
  const request = useCall(shopExportApi.requestDeletion);
  const cancel = useCall(shopExportApi.cancelDeletion);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dueAt = query.data?.dueAt ?? null;

  const confirm = async () => {
    setError(null);
    try {
      await request.mutateAsync({ body: { password } });
      setOpen(false);
      setPassword('');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const undo = async () => {
    setError(null);
    try {
      await cancel.mutateAsync({});
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <Stack sx={{ mt: 3, gap: 1.5, alignItems: 'flex-start' }}>
      {dueAt ? (
        <>
          <Alert severity="warning" sx={{ alignSelf: 'stretch' }}>
            A loja e todos os seus dados serão excluídos em {formatDate(dueAt)}.
          </Alert>
          <Button variant="outlined" onClick={undo} disabled={cancel.isPending}>
            Cancelar exclusão
          </Button>
        </>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            Excluir a loja apaga todas as vendas, clientes, produtos e arquivos depois de 7 dias. Exporte os
            dados antes.
          </Typography>
          <Button variant="outlined" color="error" onClick={() => setOpen(true)} disabled={query.isPending}>
            Excluir a loja
          </Button>
        </>
      )}
      {error && !open && <Alert severity="error">{error}</Alert>}
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="shop-deletion-title">
        <DialogTitle id="shop-deletion-title">Excluir a loja</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Todos os dados e arquivos da loja serão excluídos em 7 dias. Até lá você pode cancelar. Digite sua
            senha para confirmar.
          </DialogContentText>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <TextField
            label="Sua senha"
            type="password"
            autoComplete="current-password"
            fullWidth
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Voltar</Button>
          <Button
            color="error"
            variant="contained"
            onClick={confirm}
            disabled={!password || request.isPending}
          >
            Pedir exclusão
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
