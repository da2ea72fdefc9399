type Counts = Record<string, number>;

/** Every table's row count in one statement (`query` runs SQL and answers rows). */
export async function countRows(
  query: (text: string) => Promise<Record<string, unknown>[]>,
): Promise<Counts> {
  const tables = await query(
    `select schemaname as s, tablename as t from pg_tables
     where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  if (tables.length === 0) return {};
  const quote = (name: unknown) => `"${String(name).replaceAll('"', '""')}"`;
  const rows = await query(
    tables
      .map(
        ({ s, t }) =>
          `select ${`'${`${s}.${t}`.replaceAll("'", "''")}'`} as name, count(*)::int as n from ${quote(s)}.${quote(t)}`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((row) => [String(row.name), Number(row.n)]));
}
