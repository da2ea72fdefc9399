import type { DeliveryOrder } from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { PixChargeCard } from '../pix/index.ts';
import { useCreateOrderPix, useOrderPix } from './api.ts';

/** An order paid on delivery that can still be switched to Pix QR dinâmico (not yet paid by it). */
export function canChargeOrderPix(order: DeliveryOrder): boolean {
  return (
    order.collectCents > 0 &&
    !order.pixEndToEndId &&
    !order.marketplaceCourier &&
    ['pending', 'waiting', 'available', 'accepted', 'sending'].includes(order.status)
  );
}

/**
 * "Cobrar com Pix" (issue 33): what the order collects on delivery as a Pix QR dinâmico, from the
 * panel or the driver's screen at the door. Opening asks for the charge (the order's txid: reopening
 * shows the same one); it turns "Pago" by itself, and the order then has nothing to collect in cash.
 */
export function OrderPixDialog({ order, onClose }: { order: DeliveryOrder; onClose: () => void }) {
  const create = useCreateOrderPix();
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const status = useOrderPix(order.id, asked);
  const fullScreen = useMediaQuery('(max-width:600px)');

  const ask = () => {
    setError(null);
    create.mutate(
      { params: { id: order.id } },
      { onSuccess: () => setAsked(true), onError: (e) => setError(errorMessage(e)) },
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: one charge per order, asked on opening
  useEffect(ask, [order.id]);

  const charge = status.data?.charge ?? create.data?.charge ?? null;
  const expired = charge?.status === 'active' && Date.parse(charge.expiresAt) <= Date.now();
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby="order-pix-title"
    >
      <DialogTitle id="order-pix-title">Pix QR dinâmico - pedido nº {order.saleNumber}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="order-pix">
          <Typography>
            Valor: <strong>{formatCents(order.collectCents)}</strong>
          </Typography>
          {error ? (
            <Alert severity="error">{error}</Alert>
          ) : charge ? (
            <PixChargeCard
              charge={charge}
              hint="O cliente paga no app do banco: a confirmação aparece aqui sozinha."
              expiredHint="O Pix expirou sem pagamento: gere outro."
            />
          ) : (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <CircularProgress size={20} />
              <Typography>Gerando a cobrança Pix...</Typography>
            </Stack>
          )}
          {charge?.status === 'paid' && (
            <Alert severity="success">Pix recebido: nada a cobrar na entrega.</Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {(expired || error) && (
          <Button onClick={ask} disabled={create.isPending}>
            Gerar novo Pix
          </Button>
        )}
        <Button onClick={onClose}>Fechar</Button>
      </DialogActions>
    </Dialog>
  );
}
