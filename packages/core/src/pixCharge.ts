import { z } from './zod.ts';

/**
 * Pix confirmed by the bank (issue 33): the shop's PSP account (API Pix v2), the dynamic charge of a
 * sale (`pixQrCode`, "Pix QR dinâmico"), the Pix that need a person (reconciliation) and refunds.
 * Credentials go in and never come back: the account's answer says only what is set.
 */

export const PIX_CHARGE_MESSAGES = {
  notConfigured: 'Configure a conta Pix (Configurações > Conta Pix) para usar o Pix QR dinâmico',
  provider: 'Escolha o banco (PSP) da lista',
  environment: 'Escolha o ambiente: produção ou homologação',
  environmentMissing: 'Este banco não oferece o ambiente escolhido',
  urlFromServer:
    'Os endereços da API Pix vêm da configuração do servidor: escolha o banco e o ambiente, sem URL',
  appKey: 'Informe a chave do aplicativo (gw-dev-app-key) do Banco do Brasil',
  clientId: 'Informe o Client ID',
  clientSecret: 'Informe o Client Secret',
  certificate: 'Envie o certificado do banco (.pfx, ou .pem com a chave)',
  pem: 'Cole o certificado e a chave privada em PEM',
  pixKey: 'Informe a chave Pix da conta',
  amount: 'O valor do Pix deve ser maior que zero',
  notPaid:
    'O Pix QR dinâmico ainda não foi pago: aguarde a confirmação do banco ou troque a forma de pagamento',
  amountChanged: 'O valor do Pix pago é diferente do valor da venda',
  chargeNotFound: 'Cobrança Pix não encontrada',
  alreadyPaid: 'Esta cobrança Pix já foi paga e não pode ser cancelada',
  pspUnreachable: 'Não foi possível falar com o banco (API Pix). Tente de novo em instantes.',
  offline:
    'Sem conexão: o Pix QR dinâmico precisa do servidor para confirmar o pagamento. Use o QR estático.',
} as const;

export const PIX_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type PixEnvironment = (typeof PIX_ENVIRONMENTS)[number];
export const PIX_ENVIRONMENT_LABELS: Record<PixEnvironment, string> = {
  production: 'Produção',
  sandbox: 'Homologação (testes)',
};

/** A URL sent by the client is refused: hosts come from the server's PSP catalogue (issue 31's rule). */
const noUrl = z
  .unknown()
  .refine((v) => v === undefined, PIX_CHARGE_MESSAGES.urlFromServer)
  .optional();

/** The account form: secrets optional on an edit (empty keeps what is stored). */
export const pixAccountInputSchema = z.object({
  /** A PSP of the server's catalogue (GET /pix/account `providers`). */
  provider: z.string().trim().min(1, PIX_CHARGE_MESSAGES.provider).max(40, PIX_CHARGE_MESSAGES.provider),
  environment: z.enum(PIX_ENVIRONMENTS, PIX_CHARGE_MESSAGES.environment).default('production'),
  apiUrl: noUrl,
  tokenUrl: noUrl,
  clientId: z.string().trim().max(300).default(''),
  clientSecret: z.string().max(300).default(''),
  /** Banco do Brasil's developer application key (gw-dev-app-key); empty keeps the stored one. */
  appKey: z.string().trim().max(300).default(''),
  /** A .pfx (base64) with its passphrase, or PEM certificate + key; null keeps the stored one. */
  certificate: z
    .discriminatedUnion('format', [
      z.object({
        format: z.literal('pfx'),
        pfxBase64: z.string().min(1).max(200_000),
        passphrase: z.string().max(200).default(''),
      }),
      z.object({
        format: z.literal('pem'),
        certPem: z
          .string()
          .max(100_000)
          .refine((v) => v.includes('BEGIN CERTIFICATE'), PIX_CHARGE_MESSAGES.pem),
        keyPem: z
          .string()
          .max(100_000)
          .refine((v) => /BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY/.test(v), PIX_CHARGE_MESSAGES.pem),
      }),
    ])
    .nullable()
    .default(null),
  pixKey: z.string().trim().min(1, PIX_CHARGE_MESSAGES.pixKey).max(77, PIX_CHARGE_MESSAGES.pixKey),
  /** Seconds a charge lives (calendario.expiracao). */
  expiresInSeconds: z.number().int().min(60).max(86_400).default(600),
});
export type PixAccountInput = z.input<typeof pixAccountInputSchema>;

/** A PSP of the server's catalogue as the page's select shows it: never a host. */
export const pixProviderOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  environments: z.array(z.enum(PIX_ENVIRONMENTS)),
  needsSecret: z.boolean(),
  needsAppKey: z.boolean(),
});
export type PixProviderOption = z.infer<typeof pixProviderOptionSchema>;

/** What the browser may see of the account: never a secret, never the certificate, never a host. */
export const pixAccountSchema = z.object({
  configured: z.boolean(),
  /** '' until a PSP is chosen (or an account from before the catalogue whose host matched none). */
  provider: z.string(),
  environment: z.enum(PIX_ENVIRONMENTS),
  providers: z.array(pixProviderOptionSchema),
  hasAppKey: z.boolean(),
  /** The webhook also carries Efí's hmac (a secret query parameter checked on every post). */
  webhookHmac: z.boolean(),
  /** The client id's last 4 characters. */
  clientIdHint: z.string(),
  hasSecret: z.boolean(),
  hasCertificate: z.boolean(),
  pixKey: z.string(),
  expiresInSeconds: z.number(),
  webhookRegisteredAt: z.string().nullable(),
  lastTestError: z.string().nullable(),
});
export type PixAccount = z.infer<typeof pixAccountSchema>;

export const pixTestResultSchema = z.object({
  ok: z.boolean(),
  /** Each step in Portuguese: token, webhook. */
  steps: z.array(z.object({ step: z.string(), ok: z.boolean(), message: z.string() })),
});
export type PixTestResult = z.infer<typeof pixTestResultSchema>;

/**
 * The attempt key of a comanda payment's Pix charge: the payment's own Idempotency-Key, so the charge
 * shown while the guest pays and the payment recorded once it is paid are the same one.
 */
export const comandaPixAttemptKey = (paymentKey: string) => `comanda-pay:${paymentKey}`;

/**
 * The attempt key of a budget's Pix charge (paid by the customer on the approval link): one per
 * budget, so every retry and every reopening of the link shows the same charge (txid).
 */
export const budgetPixAttemptKey = (budgetId: number) => `budget-pix:${budgetId}`;

/**
 * The attempt key of a delivery order's Pix charge (paid on delivery switched to Pix QR dinâmico):
 * one per order (`:<n>` added for a new try after one expired unpaid), so a retry shows the same txid.
 */
export const deliveryPixAttemptKey = (orderId: number) => `delivery-pix:${orderId}`;

/** The PDV asks for the charge of its sale attempt (its Idempotency-Key) and amount. */
export const pixChargeInputSchema = z.object({
  attemptKey: z.string().min(8).max(200),
  amountCents: z.number().int().positive(PIX_CHARGE_MESSAGES.amount).max(2_147_483_647),
});
export type PixChargeInput = z.infer<typeof pixChargeInputSchema>;

export const PIX_CHARGE_STATUSES = ['active', 'paid', 'removed'] as const;

export const pixChargeSchema = z.object({
  txid: z.string(),
  status: z.enum(PIX_CHARGE_STATUSES),
  amountCents: z.number(),
  pixCopiaECola: z.string(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  endToEndId: z.string().nullable(),
  saleId: z.number().nullable(),
});
export type PixCharge = z.infer<typeof pixChargeSchema>;

export const PIX_RECONCILE_REASONS = ['late', 'wrong_amount', 'removed', 'duplicate', 'unknown'] as const;
export type PixReconcileReason = (typeof PIX_RECONCILE_REASONS)[number];
export const PIX_RECONCILE_REASON_LABELS: Record<PixReconcileReason, string> = {
  late: 'Pago depois de expirar',
  wrong_amount: 'Valor diferente da cobrança',
  removed: 'Pago depois de trocar a forma de pagamento',
  duplicate: 'Cobrança já paga por outro Pix',
  unknown: 'Cobrança não encontrada',
};

/** A Pix that reached the shop's account and needs a person. */
export const pixPendingSchema = z.object({
  id: z.number(),
  endToEndId: z.string(),
  txid: z.string().nullable(),
  amountCents: z.number(),
  chargeCents: z.number().nullable(),
  paidAt: z.string(),
  reason: z.enum(PIX_RECONCILE_REASONS),
  reasonLabel: z.string(),
  payerInfo: z.string().nullable(),
});
export const pixPendingListSchema = z.array(pixPendingSchema);
export type PixPending = z.infer<typeof pixPendingSchema>;

export const PIX_DAY_STATUSES = ['matched', 'unmatched', 'refunded'] as const;
export const PIX_DAY_STATUS_LABELS: Record<(typeof PIX_DAY_STATUSES)[number], string> = {
  matched: 'Conciliado',
  unmatched: 'Sem venda',
  refunded: 'Devolvido',
};

export const pixDayQuerySchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data inválida'),
});

export const pixDayItemSchema = z.object({
  endToEndId: z.string(),
  txid: z.string().nullable(),
  amountCents: z.number(),
  paidAt: z.string(),
  status: z.enum(PIX_DAY_STATUSES),
  saleId: z.number().nullable(),
});
export const pixDaySchema = z.object({
  date: z.string(),
  items: z.array(pixDayItemSchema),
  totals: z.object({ matchedCents: z.number(), unmatchedCents: z.number(), refundedCents: z.number() }),
});
export type PixDay = z.infer<typeof pixDaySchema>;

export const PIX_REFUND_STATUS_LABELS = {
  requested: 'Devolução pedida',
  EM_PROCESSAMENTO: 'Devolução em processamento',
  DEVOLVIDO: 'Devolvido',
  NAO_REALIZADO: 'Devolução recusada pelo banco',
} as const;
export const pixRefundSchema = z.object({
  id: z.number(),
  /** null: a Pix paid for something canceled before it became a sale (a budget's link). */
  saleId: z.number().nullable(),
  endToEndId: z.string(),
  amountCents: z.number(),
  status: z.enum(['requested', 'EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']),
  statusLabel: z.string(),
  reason: z.string().nullable(),
});
export const pixRefundListSchema = z.array(pixRefundSchema);
export type PixRefund = z.infer<typeof pixRefundSchema>;

/** What the PSP posts to `{webhookUrl}/pix` (the standard's WebhookPixBody); other fields kept. */
export const pixWebhookBodySchema = z
  .object({
    pix: z
      .array(
        z
          .object({
            endToEndId: z.string().min(1).max(64),
            txid: z.string().max(35).optional(),
            valor: z.string().regex(/^\d{1,10}\.\d{2}$/),
            horario: z.string(),
            infoPagador: z.string().max(500).optional(),
            devolucoes: z
              .array(
                z
                  .object({
                    id: z.string().max(35),
                    rtrId: z.string().optional(),
                    valor: z.string(),
                    status: z.enum(['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']),
                    motivo: z.string().optional(),
                  })
                  .loose(),
              )
              .optional(),
          })
          .loose(),
      )
      .max(1000),
  })
  .loose();
