import { PRINT_JOB_KINDS, PRINT_JOB_STATUSES, REPRINT_MARK } from './printingText.ts';
import { formatInZone } from './time.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * Printers and print stations (issue 14): printer profiles, production sectors, which category prints
 * in which sector, the sale receipt options, and the print jobs a station prints.
 */

export const CODE_PAGES = ['PC860', 'CP850', 'WPC1252'] as const;
export type CodePage = (typeof CODE_PAGES)[number];
export const CODE_PAGE_LABELS: Record<CodePage, string> = {
  PC860: 'PC860 (Português)',
  CP850: 'CP850 (Multilíngue)',
  WPC1252: 'WPC1252 (Windows Latin 1)',
};

/** The accent test line of the test page: every accented letter Portuguese uses. */
const ACCENT_TEST_LINE = 'áàâãéêíóôõúç ÁÀÂÃÉÊÍÓÔÕÚÇ';

/** A stable key the form gives a new profile or sector, so sectors and the receipt can point at it. */
const keySchema = z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(64);

const nameSchema = z
  .string({ message: REQUIRED })
  .trim()
  .min(1, 'O nome é obrigatório')
  .max(60, 'Use no máximo 60 caracteres');

const printerProfileInputSchema = z.object({
  key: keySchema,
  name: nameSchema,
  paperWidth: z.union([z.literal(58), z.literal(80)], { message: 'Escolha o papel: 58 ou 80 mm' }),
  columns: z.union([z.literal(32), z.literal(42), z.literal(48)], {
    message: 'Escolha as colunas: 32, 42 ou 48',
  }),
  codePage: z.enum(CODE_PAGES, { message: 'Escolha a página de código' }),
  copies: z
    .number({ message: 'Informe o número de cópias' })
    .int('Informe um número inteiro de cópias')
    .min(1, 'Imprima ao menos 1 cópia')
    .max(5, 'Imprima no máximo 5 cópias'),
  cut: z.boolean(),
});
type PrinterProfileInput = z.infer<typeof printerProfileInputSchema>;

const sectorInputSchema = z.object({
  key: keySchema,
  name: nameSchema,
  /** The profile (by key) its tickets print on; null = not printed. */
  profileKey: z.string().nullable(),
  /** The product categories whose items go to this sector's tickets. */
  categoryIds: z.array(z.number().int().positive()).max(500),
});

const receiptOptionsSchema = z.object({
  /** Print the sale receipt automatically after every sale. */
  autoPrint: z.boolean(),
  /** On which profile (by key); required when autoPrint is on. */
  profileKey: z.string().nullable(),
});

const PAPER_COLUMNS_MESSAGE = 'Papel de 58 mm imprime no máximo 42 colunas';
const DUPLICATE_PROFILE_NAME = 'Já existe um perfil com este nome';
const DUPLICATE_SECTOR_NAME = 'Já existe um setor com este nome';
const CATEGORY_IN_TWO_SECTORS = 'Uma categoria só pode estar em um setor';
const RECEIPT_PROFILE_REQUIRED = 'Escolha a impressora do cupom para imprimir automaticamente';
const UNKNOWN_PROFILE = 'Perfil de impressora não encontrado';

/** PUT /v1/printing/settings: the whole printer page, saved at once with the version it was read at. */
export const printingSettingsInputSchema = z
  .object({
    profiles: z.array(printerProfileInputSchema).max(20, 'Cadastre no máximo 20 perfis'),
    sectors: z.array(sectorInputSchema).max(30, 'Cadastre no máximo 30 setores'),
    receipt: receiptOptionsSchema,
    updatedAt: z.string().nullish(),
  })
  .superRefine((value, ctx) => {
    const profileKeys = new Set(value.profiles.map((p) => p.key));
    const names = new Set<string>();
    value.profiles.forEach((p, i) => {
      if (p.paperWidth === 58 && p.columns > 42)
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'columns'], message: PAPER_COLUMNS_MESSAGE });
      const name = p.name.toLocaleLowerCase('pt-BR');
      if (names.has(name))
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'name'], message: DUPLICATE_PROFILE_NAME });
      names.add(name);
    });
    const sectorNames = new Set<string>();
    const categories = new Set<number>();
    value.sectors.forEach((s, i) => {
      const name = s.name.toLocaleLowerCase('pt-BR');
      if (sectorNames.has(name))
        ctx.addIssue({ code: 'custom', path: ['sectors', i, 'name'], message: DUPLICATE_SECTOR_NAME });
      sectorNames.add(name);
      if (s.profileKey !== null && !profileKeys.has(s.profileKey))
        ctx.addIssue({ code: 'custom', path: ['sectors', i, 'profileKey'], message: UNKNOWN_PROFILE });
      for (const id of s.categoryIds) {
        if (categories.has(id))
          ctx.addIssue({
            code: 'custom',
            path: ['sectors', i, 'categoryIds'],
            message: CATEGORY_IN_TWO_SECTORS,
          });
        categories.add(id);
      }
    });
    if (value.receipt.autoPrint && value.receipt.profileKey === null)
      ctx.addIssue({ code: 'custom', path: ['receipt', 'profileKey'], message: RECEIPT_PROFILE_REQUIRED });
    if (value.receipt.profileKey !== null && !profileKeys.has(value.receipt.profileKey))
      ctx.addIssue({ code: 'custom', path: ['receipt', 'profileKey'], message: UNKNOWN_PROFILE });
  });
export type PrintingSettingsInput = z.infer<typeof printingSettingsInputSchema>;

export const printerProfileSchema = printerProfileInputSchema.extend({ id: z.number() });
export type PrinterProfile = z.infer<typeof printerProfileSchema>;
export const sectorSchema = sectorInputSchema.extend({ id: z.number() });
export type Sector = z.infer<typeof sectorSchema>;

export const printingSettingsSchema = z.object({
  profiles: z.array(printerProfileSchema),
  sectors: z.array(sectorSchema),
  receipt: receiptOptionsSchema,
  /** Null until the page is first saved. */
  updatedAt: z.string().nullable(),
  updatedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type PrintingSettings = z.infer<typeof printingSettingsSchema>;

/** What a print job prints: monospaced lines (the same text on screen, paper and ESC/POS). */
export const printDocumentSchema = z.object({
  title: z.string().max(120),
  lines: z.array(z.string().max(200)).min(1).max(2000),
  /**
   * A QR code printed after the lines (Pix copia e cola, NFC-e): the print agent prints it as a native
   * ESC/POS QR (issue 36); the browser station leaves it out.
   */
  qr: z.string().max(1000).optional(),
  /**
   * The shop's logo on a receipt (issue 36): the path of the stored logo, set by the API (never the
   * caller); the print agent fetches it from its own server and prints it as an ESC/POS raster image.
   */
  logo: z
    .string()
    .regex(/^\/v1\/settings\/logo\/\d+\/[a-f0-9]{32}\.png$/, 'Logo inválido')
    .optional(),
  /**
   * A `label` job's printer commands (ZPL or EPL from core's labels), sent to the printer as they
   * are by the print agent; `lines` then only say what the job holds (the job list shows them).
   */
  raw: z.string().max(500_000).optional(),
});
export type PrintDocument = z.infer<typeof printDocumentSchema>;

export {
  AGENT_ONLY_KINDS,
  PRINT_CONFIRM_SECONDS,
  PRINT_JOB_KIND_LABELS,
  PRINT_JOB_STATUS_LABELS,
  type PrintJobKind,
} from './printingText.ts';

const idempotencyKeySchema = z
  .string({ message: 'Envie a chave de idempotência (idempotencyKey)' })
  .trim()
  .min(8, 'Chave de idempotência inválida')
  .max(100, 'Chave de idempotência inválida');

/** POST /v1/printing/job: print a document on a profile (or a sector's profile). */
export const printJobInputSchema = z
  .object({
    profileId: z.number().int().positive().optional(),
    sectorId: z.number().int().positive().optional(),
    kind: z.enum(PRINT_JOB_KINDS),
    payload: printDocumentSchema,
    idempotencyKey: idempotencyKeySchema,
  })
  .refine((v) => (v.profileId === undefined) !== (v.sectorId === undefined), {
    message: 'Informe o perfil ou o setor da impressão',
    path: ['profileId'],
  });

/** A test page or a reprint: only the idempotency key (a retried click prints once). */
export const printActionInputSchema = z.object({ idempotencyKey: idempotencyKeySchema });

export const printFailureInputSchema = z.object({ error: z.string().trim().max(300).default('') });

/** The profile's printing format, sent with each job so the station sizes the page. */
const printFormatSchema = printerProfileSchema.pick({
  id: true,
  name: true,
  paperWidth: true,
  columns: true,
  codePage: true,
  copies: true,
  cut: true,
});

export const printJobSchema = z.object({
  id: z.number(),
  kind: z.enum(PRINT_JOB_KINDS),
  status: z.enum(PRINT_JOB_STATUSES),
  payload: printDocumentSchema,
  profile: printFormatSchema,
  sectorId: z.number().nullable(),
  /** The job this one reprints. */
  reprintOf: z.number().nullable(),
  /** How many times it was sent to a station (a retry sends it again). */
  attempts: z.number(),
  error: z.string().nullable(),
  stationName: z.string().nullable(),
  createdBy: z.object({ id: z.number(), name: z.string() }),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  printedAt: z.string().nullable(),
  /** A production ticket bumped "pronto" on its kitchen display (issue 35). */
  readyAt: z.string().nullable(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

/** The socket event a station receives: the job to print. */
export const PRINT_JOB_EVENT = 'printJob';
/** The socket event a browser sends to become (or stop being) a station. */
export const PRINT_STATION_EVENT = 'printStation';

export const printStationInputSchema = z.object({
  name: z.string().trim().min(1).max(60),
  /** The profiles it prints; empty = stop being a station. */
  profileIds: z.array(z.number().int().positive()).max(20),
});

export const printStationSchema = z.object({
  id: z.string(),
  name: z.string(),
  profileIds: z.array(z.number()),
});
export type PrintStation = z.infer<typeof printStationSchema>;

/** A line of `columns` characters with `text` centered. */
function centerLine(text: string, columns: number): string {
  const t = text.slice(0, columns);
  return `${' '.repeat(Math.floor((columns - t.length) / 2))}${t}`;
}

/** The test page of a profile: its settings, a column ruler and the accent line; `when` on the shop's clock. */
export function testPageDocument(profile: PrinterProfileInput, when: Date, timeZone: string): PrintDocument {
  const cols = profile.columns;
  const ruler = '1234567890'.repeat(Math.ceil(cols / 10)).slice(0, cols);
  const at = formatInZone(when, timeZone);
  return {
    title: `Página de teste: ${profile.name}`,
    lines: [
      centerLine('PÁGINA DE TESTE', cols),
      centerLine(profile.name, cols),
      '-'.repeat(cols),
      `Papel: ${profile.paperWidth} mm`,
      `Colunas: ${cols}`,
      `Página de código: ${profile.codePage}`,
      `Cópias: ${profile.copies}`,
      `Corte: ${profile.cut ? 'sim' : 'não'}`,
      ruler,
      ACCENT_TEST_LINE.slice(0, cols),
      '-'.repeat(cols),
      centerLine(at, cols),
    ],
  };
}

/** A reprint of a document: the REIMPRESSÃO mark on top, then the same lines. */
export function reprintDocument(document: PrintDocument, columns: number): PrintDocument {
  const title = document.title.startsWith(REPRINT_MARK)
    ? document.title
    : `${REPRINT_MARK}: ${document.title}`.slice(0, 120);
  const lines = document.lines[0]?.includes(`*** ${REPRINT_MARK} ***`)
    ? document.lines
    : [centerLine(`*** ${REPRINT_MARK} ***`, columns), ...document.lines];
  return { title, lines };
}
