import Chip from '@mui/material/Chip';

/** "Inadimplente" when a crediário installment is overdue, "Em dia" otherwise. */
export function DelinquencyBadge({ isDelinquent }: { isDelinquent: boolean }) {
  return isDelinquent ? (
    <Chip size="small" color="error" label="Inadimplente" data-testid="badge-delinquent" />
  ) : (
    <Chip size="small" color="success" variant="outlined" label="Em dia" />
  );
}

/** Result of the WhatsApp number check: valid, invalid or not checked yet. */
export function WhatsappBadge({ valid, hasPhone }: { valid: boolean | null; hasPhone: boolean }) {
  if (!hasPhone) return null;
  if (valid === true)
    return <Chip size="small" color="success" label="WhatsApp válido" data-testid="badge-whatsapp" />;
  if (valid === false)
    return <Chip size="small" color="warning" label="WhatsApp inválido" data-testid="badge-whatsapp" />;
  return (
    <Chip size="small" variant="outlined" label="WhatsApp não verificado" data-testid="badge-whatsapp" />
  );
}
