import type { BudgetPublicPix } from '@balcao/core/budget';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { PixChargeCard } from '../pix/index.ts';
import { fetchPublicPix, postPublicPix } from './api.ts';

/** The page asks about an unpaid charge this often (the API asks the bank when no webhook came). */
const POLL_MS = 2000;

/**
 * The approval link's "Pagar com Pix" (issue 33): once the customer approved, a Pix QR dinâmico of
 * the budget's total (the same charge on every retry or reopening), turning to "Pago" by itself.
 * Shown only when the shop takes Pix QR dinâmico; a paid Pix stays shown after the conversion.
 */
export function BudgetPublicPixPanel({ token, canPay }: { token: string; canPay: boolean }) {
  const [state, setState] = useState<BudgetPublicPix | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const charge = state?.charge ?? null;

  const refresh = useCallback(
    () =>
      fetchPublicPix(token).then(
        (s) => setState(s),
        () => undefined,
      ),
    [token],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const active = charge?.status === 'active' && Date.parse(charge.expiresAt) > Date.now();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [active, refresh]);

  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      setState(await postPublicPix(token));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!state || (!state.offered && !charge)) return null;
  const paid = charge?.status === 'paid';
  return (
    <Stack spacing={2} sx={{ mt: 2 }} data-testid="budget-pix">
      <Typography variant="h6">Pagamento por Pix</Typography>
      {charge ? (
        <PixChargeCard
          charge={charge}
          hint="Pague no app do seu banco: a confirmação aparece aqui sozinha."
          expiredHint="O Pix expirou sem pagamento: gere outro para pagar."
        />
      ) : null}
      {paid ? (
        <Alert severity="success">Pix recebido pela loja. Obrigado!</Alert>
      ) : canPay && !active ? (
        <Button variant="contained" onClick={pay} disabled={busy} sx={{ alignSelf: 'flex-start' }}>
          {charge ? 'Gerar novo Pix' : 'Pagar com Pix'}
        </Button>
      ) : null}
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
