import type { BarcodeMatch } from '@balcao/core/product';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api.ts';
import { findByBarcode } from '../../product/index.ts';

/**
 * Barcode input: a USB/Bluetooth scanner types the code and Enter; so does a person. Finds the
 * product (or the variant) and hands it over; the field clears at once and keeps the focus for
 * the next scan.
 */
export function BarcodeScanField({
  onFound,
  onError,
  disabled,
}: {
  onFound: (match: BarcodeMatch) => void;
  onError: (message: string) => void;
  disabled?: boolean;
}) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Scans can come faster than the answers: each one waits for the previous (rows stay in order).
  const queue = useRef<Promise<void>>(Promise.resolve());

  const lookUp = (text: string) => {
    setPending((n) => n + 1);
    queue.current = queue.current.then(async () => {
      try {
        onFound(await findByBarcode(text));
      } catch (error) {
        onError(errorMessage(error));
      } finally {
        setPending((n) => n - 1);
      }
    });
  };
  const busy = pending > 0;

  return (
    <TextField
      label="Código de barras"
      placeholder="Escaneie ou digite e tecle Enter"
      value={code}
      onChange={(e) => setCode(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          const text = code.trim();
          if (!text) return;
          setCode('');
          lookUp(text);
          input.current?.focus();
        }
      }}
      disabled={disabled}
      inputRef={input}
      autoComplete="off"
      slotProps={{
        htmlInput: { inputMode: 'numeric', 'aria-describedby': undefined },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              {busy ? (
                <CircularProgress size={20} aria-label="Buscando" />
              ) : (
                <QrCodeScannerIcon aria-hidden />
              )}
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
