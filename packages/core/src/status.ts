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
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
