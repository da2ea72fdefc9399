/** Print job kinds, statuses and marks: the texts the app shell shows (no zod here: the shell stays light). */

/**
 * `drawer`: a cash drawer kick (ESC p); `label`: label printer commands (ZPL/EPL) sent raw. Only a
 * print agent's station takes these two (issue 36): a browser would print them as text.
 */
export const PRINT_JOB_KINDS = ['test', 'receipt', 'ticket', 'document', 'drawer', 'label'] as const;
export type PrintJobKind = (typeof PRINT_JOB_KINDS)[number];
export const PRINT_JOB_KIND_LABELS: Record<PrintJobKind, string> = {
  test: 'Página de teste',
  receipt: 'Cupom de venda',
  ticket: 'Comanda de produção',
  document: 'Documento',
  drawer: 'Abertura de gaveta',
  label: 'Etiquetas',
};

/** The kinds only a print agent prints (bytes for the printer, not a page). */
export const AGENT_ONLY_KINDS: readonly PrintJobKind[] = ['drawer', 'label'];

/**
 * pending: waiting for a station; sent: delivered to one station, not yet confirmed; printed;
 * failed: the station said it could not print. `unconfirmed` (answer only) is a sent job whose
 * station did not confirm within PRINT_CONFIRM_SECONDS.
 */
export const PRINT_JOB_STATUSES = ['pending', 'sent', 'printed', 'failed', 'unconfirmed'] as const;
type PrintJobStatus = (typeof PRINT_JOB_STATUSES)[number];
export const PRINT_JOB_STATUS_LABELS: Record<PrintJobStatus, string> = {
  pending: 'Aguardando estação',
  sent: 'Enviado',
  printed: 'Impresso',
  failed: 'Falhou',
  unconfirmed: 'Sem confirmação',
};
export const PRINT_CONFIRM_SECONDS = 60;

/** The mark a reprint carries on its first line (an explicit reprint, never a retried send). */
export const REPRINT_MARK = 'REIMPRESSÃO';
