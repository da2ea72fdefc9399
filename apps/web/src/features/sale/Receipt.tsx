import { RECEIPT_COLUMNS, type ReceiptWidth, receiptLines } from '@balcao/core/receipt';
import PrintIcon from '@mui/icons-material/Print';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { shopTimeZone } from '../../lib/format.ts';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';
import { useSession } from '../auth/index.ts';
import { useReceiptShop } from '../settings/index.ts';

const WIDTH_KEY = 'receipt-width';

/**
 * Receipt preview and print (INTEGRATIONS.md: 58 mm = 32 columns, 80 mm = 48; printable width about
 * 48 mm / 72 mm). The same monospaced lines the core builds; on paper only the receipt prints.
 */
export function Receipt({ sale }: { sale: Parameters<typeof receiptLines>[0] }) {
  const { user } = useSession();
  const shop = useReceiptShop().data;
  const [width, setWidth] = useState<ReceiptWidth>(() => loadPersisted<ReceiptWidth>(WIDTH_KEY, 80));
  // The company page's data (name, document, address, header, footer); the session's name until loaded.
  const lines = receiptLines(
    sale,
    shop
      ? {
          name: shop.name,
          document: shop.document,
          phone: shop.phone,
          address: shop.address,
          header: shop.receiptHeader,
          footer: shop.receiptFooter,
          timeZone: shopTimeZone(),
        }
      : { name: user?.client.name ?? 'Balcão', timeZone: shopTimeZone() },
    width,
  );
  const logoUrl = shop?.logoUrl ?? null;
  const printable = width === 58 ? '48mm' : '72mm';

  return (
    <Box>
      <style>{`@media print {
  @page { size: ${width}mm auto; margin: 0; }
  body * { visibility: hidden !important; }
  .receipt-paper, .receipt-paper * { visibility: visible !important; }
  .receipt-paper { position: fixed !important; left: 0; top: 0; width: ${printable} !important; margin: 0 !important;
    padding: 0 !important; box-shadow: none !important; border: 0 !important; background: #fff !important; color: #000 !important; }
  .receipt-paper pre { font-size: 2.5mm !important; }
}`}</style>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}
        className="no-print"
      >
        <ToggleButtonGroup
          size="small"
          exclusive
          value={width}
          aria-label="Largura da impressora"
          onChange={(_, value: ReceiptWidth | null) => {
            if (!value) return;
            setWidth(value);
            savePersisted(WIDTH_KEY, value);
          }}
        >
          <ToggleButton value={58}>58 mm</ToggleButton>
          <ToggleButton value={80}>80 mm</ToggleButton>
        </ToggleButtonGroup>
        <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
          Imprimir
        </Button>
      </Stack>
      <Paper
        className="receipt-paper"
        data-testid="receipt"
        data-width={width}
        variant="outlined"
        sx={{
          p: 2,
          display: 'inline-block',
          bgcolor: '#fff',
          color: '#000',
          maxWidth: '100%',
          overflowX: 'auto',
        }}
      >
        {logoUrl && (
          <Box
            component="img"
            src={logoUrl}
            alt={`Logotipo ${shop?.name ?? ''}`}
            data-testid="receipt-logo"
            sx={{
              display: 'block',
              mx: 'auto',
              mb: 1,
              maxWidth: width === 58 ? '32mm' : '48mm',
              maxHeight: '24mm',
              filter: 'grayscale(1)',
            }}
          />
        )}
        <Box
          component="pre"
          aria-label={`Comprovante ${width} mm`}
          sx={{
            m: 0,
            fontFamily: '"Courier New", ui-monospace, monospace',
            // A phone shows the whole 80 mm line: the font shrinks with the screen (Courier's
            // character is 0.6em wide; 72px = page and paper padding), never above 13px.
            fontSize: `min(13px, calc((100vw - 72px) / ${RECEIPT_COLUMNS[width] * 0.6}))`,
            lineHeight: 1.3,
            width: `${RECEIPT_COLUMNS[width]}ch`,
            whiteSpace: 'pre',
          }}
        >
          {lines.join('\n')}
        </Box>
      </Paper>
    </Box>
  );
}
