import type { PixCharge } from '@balcao/core/pixCharge';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useCreatePixCharge, usePixCharge } from './api.ts';

/** mm:ss left until `expiresAt`, ticking every second; 00:00 once expired. */
function useCountdown(expiresAt: string | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  if (!expiresAt) return { text: '', expired: false };
  const left = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  const mm = String(Math.floor(left / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return { text: `${mm}:${ss}`, expired: left === 0 };
}

/**
 * "Pix QR dinâmico" at the PDV (issue 33): the charge of this payment (its txid comes from the sale
 * attempt's key, so a retry shows the same charge), its QR and "copia e cola", the expiry countdown,
 * and "Pago" by itself: the socket's `pix` change refetches at once, and the charge is polled every
 * 2 s (the API asks the bank) when no webhook comes.
 */
export function PixDynamicCharge({
  attemptKey,
  amountCents,
  onPaid,
  onCharge,
}: {
  attemptKey: string;
  amountCents: number;
  /** Once, when the bank confirmed the Pix. */
  onPaid: (charge: PixCharge) => void;
  /** The charge's txid once created (to withdraw it when the payment is removed). */
  onCharge?: (txid: string) => void;
}) {
  const create = useCreatePixCharge();
  const [txid, setTxid] = useState<string | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const charge = usePixCharge(txid);
  const data = charge.data ?? create.data;
  const paidOnce = useRef(false);

  const start = () => {
    setCreateError(null);
    create.mutate(
      { body: { attemptKey, amountCents } },
      {
        onSuccess: (c) => {
          setTxid(c.txid);
          onCharge?.(c.txid);
        },
        onError: (error) => setCreateError(errorMessage(error)),
      },
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: one charge per attempt and amount
  useEffect(start, [attemptKey, amountCents]);

  useEffect(() => {
    if (data?.status === 'paid' && !paidOnce.current) {
      paidOnce.current = true;
      onPaid(data);
    }
  }, [data, onPaid]);

  if (createError)
    return (
      <Alert
        severity="error"
        data-testid="pix-dynamic-error"
        action={
          <Button color="inherit" size="small" onClick={start}>
            Tentar de novo
          </Button>
        }
      >
        {createError}
      </Alert>
    );
  if (!data)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} />
        <Typography>Gerando a cobrança Pix...</Typography>
      </Stack>
    );
  return (
    <PixChargeCard charge={data} hint="A venda pode ser finalizada assim que o banco confirmar o Pix." />
  );
}

/**
 * A dynamic charge as a payer sees it (issue 33): its QR and "copia e cola", the expiry countdown,
 * "Pago" once the bank confirmed it. The PDV's and the budget link's (which polls it itself).
 */
export function PixChargeCard({
  charge: data,
  hint,
  expiredHint = 'A cobrança expirou: remova este pagamento e adicione de novo para gerar outra.',
}: {
  charge: PixCharge;
  hint: string;
  expiredHint?: string;
}) {
  const countdown = useCountdown(data.expiresAt);
  const [svg, setSvg] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const payload = data.pixCopiaECola ?? '';
  useEffect(() => {
    if (!payload) return;
    let canceled = false;
    QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 220 })
      .then((text) => !canceled && setSvg(text))
      .catch(() => !canceled && setSvg(null));
    return () => {
      canceled = true;
    };
  }, [payload]);

  if (data.status === 'paid')
    return (
      <Chip
        icon={<CheckCircleIcon />}
        color="success"
        label="Pago"
        data-testid="pix-dynamic-status"
        aria-live="polite"
        // A column (the budget link's, a dialog at 390 px) would stretch it into a bar.
        sx={{ alignSelf: 'flex-start' }}
      />
    );
  if (data.status === 'removed') return <Alert severity="info">Cobrança Pix cancelada.</Alert>;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
      <Box
        role="img"
        aria-label="QR Code Pix dinâmico"
        data-testid="pix-qr"
        sx={{ width: 220, height: 220, bgcolor: '#fff', flexShrink: 0 }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG produced by the qrcode library from the bank's BR Code
        dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
      />
      <Stack spacing={1} sx={{ flexGrow: 1, width: '100%' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} aria-live="polite">
          <Chip
            color={countdown.expired ? 'error' : 'warning'}
            label={countdown.expired ? 'Expirado' : 'Aguardando pagamento'}
            data-testid="pix-dynamic-status"
          />
          {!countdown.expired && (
            <Typography variant="body2" data-testid="pix-countdown">
              Expira em {countdown.text}
            </Typography>
          )}
        </Stack>
        <TextField
          label="Pix copia e cola"
          value={payload}
          multiline
          minRows={3}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'pix-payload' } }}
          fullWidth
        />
        <Box>
          <Button
            startIcon={<ContentCopyIcon />}
            onClick={() =>
              navigator.clipboard?.writeText(payload).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? 'Copiado' : 'Copiar código'}
          </Button>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
        {countdown.expired && <Alert severity="warning">{expiredHint}</Alert>}
      </Stack>
    </Stack>
  );
}
