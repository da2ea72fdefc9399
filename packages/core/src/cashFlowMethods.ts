/**
 * The sales received split by how they were paid (issue 34): dinheiro, Pix (every Pix method), crédito,
 * débito, the meal vouchers (every brand), other methods (boleto, transfer, cheque, marketplace...).
 * Crediário is its own column (received instalments), the vale-troca is not money in.
 */
export const CASH_FLOW_METHODS = ['money', 'pix', 'creditCard', 'debitCard', 'voucher', 'other'] as const;
export type CashFlowMethod = (typeof CASH_FLOW_METHODS)[number];
export const CASH_FLOW_METHOD_LABELS: Record<CashFlowMethod, string> = {
  money: 'Dinheiro',
  pix: 'Pix',
  creditCard: 'Crédito',
  debitCard: 'Débito',
  voucher: 'Vales-refeição',
  other: 'Outras formas',
};

/** The cash flow's group of a sale's payment method. */
export function cashFlowMethodOf(method: string): CashFlowMethod {
  if (method === 'money' || method === 'creditCard' || method === 'debitCard') return method;
  if (method.startsWith('pix')) return 'pix';
  if (method.startsWith('voucher')) return 'voucher';
  return 'other';
}
