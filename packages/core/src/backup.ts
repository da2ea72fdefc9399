import { z } from './zod.ts';

/** Issue 37: the instance's backups (the embedded database's data folder, or pg_dump on PostgreSQL). */

export const BACKUP_KINDS = ['manual', 'scheduled', 'pre-upgrade'] as const;
export const BACKUP_STATUSES = ['ok', 'failed', 'unavailable'] as const;

export const BACKUP_KIND_LABELS: Record<(typeof BACKUP_KINDS)[number], string> = {
  manual: 'Manual',
  scheduled: 'Agendado',
  'pre-upgrade': 'Antes da atualização',
};

export const BACKUP_STATUS_LABELS: Record<(typeof BACKUP_STATUSES)[number], string> = {
  ok: 'Concluído',
  failed: 'Falhou',
  unavailable: 'Indisponível',
};

/** The page's and the API's Portuguese texts. */
export const BACKUP_MESSAGES = {
  operatorOnly:
    'Os backups guardam o banco inteiro da instância: só o Administrador da primeira loja (o operador) pode vê-los.',
  notFound: 'Backup não encontrado',
  fileMissing: 'O arquivo deste backup não está mais no disco',
  pgDumpMissing:
    'O servidor usa PostgreSQL e o programa pg_dump não foi encontrado: instale o cliente do PostgreSQL (pacote postgresql-client) ou faça o backup pelo provedor do banco (veja deploy/postgres-backup.md).',
  failedBell: 'O backup automático falhou. Veja Configurações > Backups.',
  verifyMismatch: 'A verificação do backup encontrou contagens de linhas diferentes',
  invalidHour: 'Informe uma hora entre 0 e 23',
  lowDiskBell:
    'Pouco espaço em disco no servidor: os backups foram suspensos. Libere espaço no disco. Veja Configurações > Backups.',
} as const;

/**
 * The reason a backup is not taken (issue 37): DATA_DIR's disk has less free space than a backup needs
 * (the last backup's size twice, plus a margin for the shop's own writes).
 */
export function lowDiskMessage(freeBytes: number, neededBytes: number): string {
  return `Pouco espaço em disco: ${formatBytes(freeBytes)} livres, o backup precisa de ${formatBytes(neededBytes)}. Os backups ficam suspensos até que haja espaço; libere espaço no disco do servidor.`;
}

export const backupSchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  kind: z.enum(BACKUP_KINDS),
  /** shop: one shop's rows and files (its export ZIP), on a PostgreSQL several shops share. */
  engine: z.enum(['pglite', 'postgres', 'shop']),
  fileName: z.string(),
  sizeBytes: z.number(),
  status: z.enum(BACKUP_STATUSES),
  verified: z.boolean(),
  /** Tables and rows counted at dump time (and found again in the scratch restore when verified). */
  tables: z.number(),
  rows: z.number(),
  /** Copied to the S3 bucket the app is configured with. */
  uploaded: z.boolean(),
  durationMs: z.number(),
  error: z.string().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

export const backupScheduleSchema = z.object({
  /** Nightly backups on. */
  enabled: z.boolean(),
  /** The shop's hour (0-23, in the first shop's time zone) the nightly backup runs. */
  hour: z.number().int().min(0, BACKUP_MESSAGES.invalidHour).max(23, BACKUP_MESSAGES.invalidHour),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const backupListSchema = z.object({
  backups: z.array(backupSchema),
  schedule: backupScheduleSchema,
  /** Where the files are (DATA_DIR/backups) and whether they also go to S3. */
  folder: z.string(),
  s3: z.boolean(),
  /** On PostgreSQL without pg_dump: the reason the app cannot back up (shown on the page). */
  unavailable: z.string().nullable(),
  /** DATA_DIR's disk has less free space than a backup needs: backups are suspended (`lowDiskMessage`). */
  lowDisk: z.string().nullable(),
  /** A PostgreSQL several shops share: each shop's backups hold its own rows and files (its export ZIP). */
  perShop: z.boolean(),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** Retention (issue 37): the newest of each of the last 7 days, 4 weeks and 12 months are kept. */
export const BACKUP_RETENTION = { daily: 7, weekly: 4, monthly: 12 } as const;

/** A file size as people read it: "850 KB", "1,2 MB", "3,4 GB" (1024 steps). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 || value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace('.', ',');
  return `${text} ${units[unit]}`;
}
