import { buildPixPayload, pixPayloadProblem } from '@balcao/core/pix';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useSession } from '../auth/index.ts';

/**
 * A static Pix charge (pixQrCodeStatic): the BR Code built by core (CRC16) from the client's Pix key
 * and merchant name/city, drawn as a QR by the `qrcode` library, and its "copia e cola" text.
 */
export function PixQr({ amountCents, txid }: { amountCents: number; txid?: string }) {
  const { paymentGateway, user } = useSession();
  const settings = {
    key: paymentGateway?.pixKey ?? '',
    merchantName: paymentGateway?.merchantName || user?.client.name || '',
    merchantCity: paymentGateway?.merchantCity ?? '',
    amountCents,
    txid,
  };
  const problem = pixPayloadProblem(settings);
  const payload = problem ? null : buildPixPayload(settings);
  const [svg, setSvg] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

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

  if (problem || !payload) return <Alert severity="warning">{problem}</Alert>;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
      <Box
        role="img"
        aria-label="QR Code Pix"
        data-testid="pix-qr"
        sx={{ width: 220, height: 220, bgcolor: '#fff', flexShrink: 0 }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG produced by the qrcode library from our own payload
        dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
      />
      <Stack spacing={1} sx={{ flexGrow: 1, width: '100%' }}>
        <TextField
          label="Pix copia e cola"
          value={payload}
          multiline
          minRows={3}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'pix-payload' } }}
          fullWidth
        />
        <Button
          variant="outlined"
          startIcon={<ContentCopyIcon />}
          onClick={() =>
            navigator.clipboard
              ?.writeText(payload)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {copied ? 'Copiado!' : 'Copiar código Pix'}
        </Button>
      </Stack>
    </Stack>
  );
}
