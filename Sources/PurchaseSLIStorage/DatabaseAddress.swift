/// How `--db`, `PURCHASE_SLI_DB` and a config's `db` name a store: a `postgres://` (or `postgresql://`)
/// URL, as libpq spells it, names a PostgreSQL database; anything else is a SQLite file.
public enum DatabaseAddress {
    /// Whether `text` names a PostgreSQL database rather than a SQLite file: its scheme, in any letter
    /// case and however malformed the rest (`Postgres://`, `postgres:/…`), so that a URL holding a
    /// password is never taken for a file path and printed as one.
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.prefix(11).lowercased()
        return lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:")
    }
}
