import Alert from '@mui/material/Alert';

/** Back-office users outside WRITE.stock see the stock pages read only. */
export function ReadOnlyNotice() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Você pode consultar o estoque, mas não registrar movimentações.
    </Alert>
  );
}
