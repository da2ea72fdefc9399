/** The payment methods of a sale (spec 3 values). */
export const PAYMENT_METHODS = [
  'creditCard',
  'debitCard',
  'pix',
  'pixQrCode',
  'pixQrCodeStatic',
  'creditShop',
  'money',
  'boleto',
  'bankTransfer',
  'check',
  'paymentOnDelivery',
  /** Vale-troca: the customer's store credit from a return (issue 30). */
  'storeCredit',
  /** Issue 35: paid online on iFood or an Open Delivery app: never the drawer's cash. */
  'marketplace',
  /** Meal and food vouchers (VR/VA cards, issue 33), one method per brand, each counted apart. */
  'voucherAlelo',
  'voucherPluxee',
  'voucherTicket',
  'voucherVr',
  'voucherOther',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
