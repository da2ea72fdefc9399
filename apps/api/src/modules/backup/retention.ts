import { BACKUP_RETENTION } from '@balcao/core/backup';

type Dated = { id: number; createdAt: string | Date };

/** Monday of the ISO week of a UTC day, as YYYY-MM-DD. */
function weekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/**
 * The retention rule (issue 37), grandfather-father-son: the newest backup of each of the 7 most recent
 * days that have one, of each of the 4 most recent weeks (ISO, Monday first) and of each of the 12 most
 * recent months are kept; a backup kept by any of the three stays. Days are UTC days. Answers the ids
 * to keep; every other successful backup is pruned (file and row).
 */
export function backupsToKeep(backups: readonly Dated[], rule = BACKUP_RETENTION): Set<number> {
  const newestFirst = [...backups].sort(
    (a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime() || b.id - a.id,
  );
  const keep = new Set<number>();
  const bucket = (keyOf: (at: Date) => string, count: number) => {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      const key = keyOf(new Date(backup.createdAt));
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      keep.add(backup.id);
    }
  };
  bucket((at) => at.toISOString().slice(0, 10), rule.daily);
  bucket(weekOf, rule.weekly);
  bucket((at) => at.toISOString().slice(0, 7), rule.monthly);
  return keep;
}
