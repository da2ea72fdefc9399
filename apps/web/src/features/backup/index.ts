/** What the backup feature offers the other features (Configurações > Sistema's nightly schedule). */
export { BackupScheduleSection } from './BackupSchedule.tsx';
