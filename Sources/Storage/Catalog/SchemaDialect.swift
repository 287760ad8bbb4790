import GRDB

/// How one database writes what `CatalogSchema` decides: a column's type, and which columns a
/// table has. The decisions (what a changed definition adds, what it refuses) are the same.
struct SchemaDialect {
    /// SQLite's type of a column (`INTEGER`, `TEXT NOT NULL DEFAULT ''`…) in this database.
    let columnType: (String) -> String
    /// The names of a table's columns.
    let columns: (String) throws -> Set<String>

    static func sqlite(_ db: Database) -> SchemaDialect {
        SchemaDialect(columnType: { $0 }, columns: { table in Set(try db.columns(in: table).map(\.name)) })
    }
}
