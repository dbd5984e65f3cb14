/// How `--db`, `PURCHASE_SLI_DB` and a config's `db` name a store: a `postgres://` (or `postgresql://`)
/// URL, as libpq spells it, names a PostgreSQL database; anything else is a SQLite file.
public enum DatabaseAddress {
    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}
