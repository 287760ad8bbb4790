import GRDB

/// The database schema, created and evolved by versioned migrations.
///
/// Every collection has its own table with typed columns. Items are addressed by their text
/// `id` (unique index) but the table keeps an `INTEGER PRIMARY KEY pk`: FTS5's external-content
/// tables link rows by an integer key, and an explicit one survives `VACUUM`, which may renumber
/// implicit rowids.
///
/// Text sorts use `*_key` columns holding Domain's `searchFolded` form, compared bytewise, so
/// "Émile" sorts with "emile" whatever the locale. Every order appends `id ASC`, which makes it
/// total; because the id stays ascending when a key descends, each sortable field has an index
/// per direction (`(key, id)` and `(key DESC, id)`): SQLite can walk an index backwards, but
/// that would also reverse the id.
///
/// `title_key`/`subtitle_key` are the folded title and subtitle lines the list rows show;
/// `<table>_search` indexes them with FTS5's trigram tokenizer (external content) for substring
/// search. Version 1 kept it in step with triggers; since version 2 the writer does, once per
/// transaction (`SearchIndexChanges`, `DeferredBulkWork`). Debian's SQLite 3.40 trigram tokenizer cannot remove
/// diacritics, hence the folded columns. Since version 3, `<table>_grams` lets queries of one or
/// two characters use that index too (`SearchGrams`). Since version 4, the title indexes end with
/// `subtitle_key`, so a search ordered by title tests both searched columns in the index entries
/// (`titleIndexes`).
enum StoreSchema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: collections, search, change log") { db in
            for statement in version1 { try db.execute(sql: statement) }
            for table in searchableTables {
                for statement in searchIndex(on: table) { try db.execute(sql: statement) }
            }
        }
        migrator.registerMigration("v2: search indexed by the writer, not by triggers") { db in
            // See SearchIndexChanges: the writer indexes once per transaction.
            for table in searchableTables {
                for trigger in ["insert", "delete", "update"] {
                    try db.execute(sql: "DROP TRIGGER IF EXISTS \(table)_search_\(trigger)")
                }
            }
        }
        migrator.registerMigration("v3: grams for searches under three characters") { db in
            // See SearchGrams; derived from each index as it is (a second on a million products).
            // A new database has nothing to derive, and opening one should stay quick: tests
            // and `rowserver serve` on a fresh file open it on a request thread.
            for table in searchableTables {
                for statement in SearchGrams.schema(on: table) { try db.execute(sql: statement) }
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true {
                    try SearchGrams.rebuild(db, table: table)
                }
            }
        }
        migrator.registerMigration("v4: title indexes hold the subtitle") { db in
            // A search ordered by title walks the title index testing the text. Without the
            // subtitle in the entries, each needed either its row or a full-text query of the
            // subtitles (7 to 15 ms on a million products, whatever the page).
            for (table, name) in titleIndexes {
                try db.execute(sql: "DROP INDEX \(name)")
                try db.execute(sql: "CREATE INDEX \(name) ON \(table) (title_key, id, subtitle_key)")
                try db.execute(sql: "DROP INDEX \(name)_desc")
                try db.execute(sql: "CREATE INDEX \(name)_desc ON \(table) (title_key DESC, id, subtitle_key)")
            }
        }
        return migrator
    }

    /// The tables whose lists sort by title, with the name of their title index (its descending
    /// twin adds `_desc`). Version 1 created them as `(title_key, id)`, version 4 appends
    /// `subtitle_key`: the order is the same, and the entries hold both searched columns.
    static let titleIndexes = [
        ("products", "products_name"), ("departments", "departments_name"), ("articles", "articles_headline"),
        ("documents", "documents_title"), ("tracks", "tracks_title"),
    ]

    static let version1: [String] = [
        """
        CREATE TABLE products (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            name TEXT NOT NULL, short_description TEXT NOT NULL, long_description TEXT NOT NULL,
            price_minor INTEGER NOT NULL, currency TEXT NOT NULL,
            title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX products_name ON products (title_key, id)",
        "CREATE INDEX products_name_desc ON products (title_key DESC, id)",
        "CREATE INDEX products_price ON products (price_minor, id)",
        "CREATE INDEX products_price_desc ON products (price_minor DESC, id)",

        """
        CREATE TABLE departments (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            name TEXT NOT NULL, title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX departments_name ON departments (title_key, id)",
        "CREATE INDEX departments_name_desc ON departments (title_key DESC, id)",

        // department_key copies the department's title_key so grouped pages are one index walk;
        // renaming a department rewrites it in the same transaction.
        """
        CREATE TABLE people (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            given_name TEXT NOT NULL, family_name TEXT NOT NULL, email_address TEXT NOT NULL,
            phone_number TEXT NOT NULL,
            department_id TEXT NOT NULL REFERENCES departments (id) ON DELETE RESTRICT,
            department_key TEXT NOT NULL,
            family_key TEXT NOT NULL, given_key TEXT NOT NULL, email_key TEXT NOT NULL,
            title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX people_family ON people (family_key, id)",
        "CREATE INDEX people_family_desc ON people (family_key DESC, id)",
        "CREATE INDEX people_given ON people (given_key, id)",
        "CREATE INDEX people_given_desc ON people (given_key DESC, id)",
        "CREATE INDEX people_email ON people (email_key, id)",
        "CREATE INDEX people_email_desc ON people (email_key DESC, id)",
        "CREATE INDEX people_name ON people (family_key, given_key, id)",
        "CREATE INDEX people_name_desc ON people (family_key DESC, given_key DESC, id)",
        "CREATE INDEX people_section ON people (department_key, department_id, family_key, given_key, id)",
        "CREATE INDEX people_section_desc ON people (department_key, department_id, family_key DESC, given_key DESC, id)",
        // Serves the department filter and the foreign key check when a department is deleted.
        "CREATE INDEX people_department ON people (department_id, family_key, given_key, id)",

        """
        CREATE TABLE articles (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            headline TEXT NOT NULL, markdown TEXT NOT NULL, title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX articles_headline ON articles (title_key, id)",
        "CREATE INDEX articles_headline_desc ON articles (title_key DESC, id)",

        """
        CREATE TABLE documents (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            title TEXT NOT NULL, body TEXT NOT NULL, title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX documents_title ON documents (title_key, id)",
        "CREATE INDEX documents_title_desc ON documents (title_key DESC, id)",

        // channels: the JSON array of {id, name}, in level order.
        """
        CREATE TABLE tracks (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            title TEXT NOT NULL, channels TEXT NOT NULL, title_key TEXT NOT NULL, subtitle_key TEXT)
        """,
        "CREATE INDEX tracks_title ON tracks (title_key, id)",
        "CREATE INDEX tracks_title_desc ON tracks (title_key DESC, id)",

        // levels: little-endian IEEE 754 doubles, one per channel (8 bytes each).
        """
        CREATE TABLE samples (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, version INTEGER NOT NULL,
            track_id TEXT NOT NULL REFERENCES tracks (id) ON DELETE RESTRICT,
            timestamp_ms INTEGER NOT NULL, levels BLOB NOT NULL)
        """,
        "CREATE INDEX samples_timestamp ON samples (track_id, timestamp_ms, id)",
        "CREATE INDEX samples_timestamp_desc ON samples (track_id, timestamp_ms DESC, id)",

        // AUTOINCREMENT: a sequence is never reused, even after pruning empties the table.
        """
        CREATE TABLE changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, item_id TEXT NOT NULL,
            op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')), committed_at INTEGER NOT NULL)
        """,
        "CREATE INDEX changes_collection ON changes (collection, seq)",

        // Durable counters: "version.<collection>" (its last change) and "pruned_through".
        "CREATE TABLE store_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
    ]

    /// Tables with a search index.
    static let searchableTables = ["products", "departments", "people", "articles", "documents", "tracks"]

    /// The trigger that indexed a new row in version 1 (dropped by version 2).
    static func searchInsertTrigger(on table: String) -> String {
        """
        CREATE TRIGGER \(table)_search_insert AFTER INSERT ON \(table) BEGIN
            INSERT INTO \(table)_search (rowid, title_key, subtitle_key) VALUES (new.pk, new.title_key, new.subtitle_key);
        END
        """
    }

    /// The FTS5 trigram index over a table's folded title and subtitle, and its triggers.
    static func searchIndex(on table: String) -> [String] {
        let fts = "\(table)_search"
        return [
            """
            CREATE VIRTUAL TABLE \(fts) USING fts5(
                title_key, subtitle_key, content='\(table)', content_rowid='pk',
                tokenize='trigram case_sensitive 1')
            """,
            searchInsertTrigger(on: table),
            """
            CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                INSERT INTO \(fts) (\(fts), rowid, title_key, subtitle_key)
                VALUES ('delete', old.pk, old.title_key, old.subtitle_key);
            END
            """,
            """
            CREATE TRIGGER \(table)_search_update AFTER UPDATE OF title_key, subtitle_key ON \(table) BEGIN
                INSERT INTO \(fts) (\(fts), rowid, title_key, subtitle_key)
                VALUES ('delete', old.pk, old.title_key, old.subtitle_key);
                INSERT INTO \(fts) (rowid, title_key, subtitle_key) VALUES (new.pk, new.title_key, new.subtitle_key);
            END
            """,
        ]
    }
}
