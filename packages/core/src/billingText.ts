import { formatCents } from './money.ts';

/** Billing texts the app shell shows (no zod here: the shell stays light). */

/** The overdue banner's text. */
export function overdueBannerText(dueDate: string, amountCents: number | null = null): string {
  const [y, m, d] = dueDate.split('-');
  const amount = amountCents === null ? '' : ` de ${formatCents(amountCents)}`;
  return `A fatura${amount} da sua assinatura venceu em ${d}/${m}/${y}. Pague em Configurações > Assinatura para manter o Balcão em dia.`;
}
