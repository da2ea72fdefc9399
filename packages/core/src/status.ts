export const STATUS = [
  'active',
  'finished',
  'waiting',
  'pending',
  'inactive',
  'deleted',
  'sent',
  'sending',
  'failed',
  'success',
  'bloqued',
  'canceled',
] as const;
export type Status = (typeof STATUS)[number];

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
