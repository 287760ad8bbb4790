import Domain
import GRDB

/// Creates and evolves a catalog store's tables from the definition it serves.
///
/// What each table holds is recorded in `catalog_fields` (one row per stored field and its type)
/// and `catalog_derivations` (what the derived key columns were computed from). On open:
/// - a new collection gets its table, indexes and search index;
/// - a new field gets its columns (existing items take its default, or null when optional);
/// - new or changed sorts, sections or search texts get their key columns recomputed;
/// - indexes follow the definition (an index holds no data of its own);
/// - a field that is gone, a field whose type changed, a changed id prefix, a new required field without a default on
///   a table with items, or a collection that is gone while it has items refuse to open with
///   `StoreError.incompatibleDefinition`, naming the change and what to do. Nothing is dropped.
enum CatalogSchema {
    static let baseStatements = [
        """
        CREATE TABLE IF NOT EXISTS changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, item_id TEXT NOT NULL,
            op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')), committed_at INTEGER NOT NULL, key_id TEXT, parent_id TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS changes_collection ON changes (collection, seq)",
        // One entry per item in a feed page: "is there a later entry of this item?" is a seek.
        "CREATE INDEX IF NOT EXISTS changes_item ON changes (collection, item_id, seq)",
        "CREATE TABLE IF NOT EXISTS store_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
        """
        CREATE TABLE IF NOT EXISTS catalog_fields (
            collection TEXT NOT NULL, field TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY (collection, field)) WITHOUT ROWID
        """,
        "CREATE TABLE IF NOT EXISTS catalog_derivations (collection TEXT PRIMARY KEY, derivation TEXT NOT NULL) WITHOUT ROWID",
        SearchBacklog.createSQL,
    ]

    /// A child list's feed seeks its parent's entries; top-level entries (no parent) stay out of it.
    static let changesByParentIndex = "CREATE INDEX IF NOT EXISTS changes_parent ON changes (collection, parent_id, seq) WHERE parent_id IS NOT NULL"

    /// Brings the database to `tables`; returns the collections whose derived columns must be
    /// recomputed (the caller does it with the renderers, in the same transaction).
    static func migrate(_ db: Database, tables: [CatalogTable], catalog: Catalog) throws -> [CatalogTable] {
        if try db.tableExists("grdb_migrations"), try db.tableExists("products"), try !db.tableExists("catalog_fields") {
            throw StoreError.incompatibleDefinition(
                "This database was written by a rowserver before collection definitions (one table per demo collection). "
                    + "Serve it with that version, or start this one on a new file: --db NEW.sqlite.")
        }
        for statement in baseStatements { try db.execute(sql: statement) }
        try db.execute(sql: KeyStore.createTable)
        try db.execute(sql: IdempotencyStore.createTable)
        // Who wrote each change, and under which parent: a file from before API keys, or before
        // child lists had feeds, lacks these columns. No child feed token predates the second, so
        // its entries before it are never read by parent.
        let logColumns = Set(try db.columns(in: "changes").map(\.name))
        for column in ["key_id", "parent_id"] where !logColumns.contains(column) {
            try db.execute(sql: "ALTER TABLE changes ADD COLUMN \(column) TEXT")
        }
        try db.execute(sql: changesByParentIndex)
        try refuseDroppedCollections(db, catalog: catalog)
        var recompute: [CatalogTable] = []
        for table in tables {
            if try !db.tableExists(table.name) {
                try create(table, db)
            } else if try evolve(table, db, dialect: .sqlite(db)) {
                recompute.append(table)
            }
            _ = try TitleOrder.ensure(table, db)
            try syncIndexes(table, db)
            try SearchGrams.ensure(table, db)
            // The grams of subtitles, which only a plan that the title order replaced read.
            try db.execute(sql: "DROP TABLE IF EXISTS \(CatalogTable.quote("\(table.name)_subtitle_grams"))")
            try SearchMerging.ensure(table, db)
            try recordDerivation(of: table, catalog: catalog, db)
        }
        return recompute
    }

    static func refuseDroppedCollections(_ db: any SQLConnection, catalog: Catalog) throws {
        let recorded = try db.texts("SELECT DISTINCT collection FROM catalog_fields ORDER BY collection", [])
        for name in recorded where catalog.collection(named: name) == nil {
            let count = try db.integer("SELECT COUNT(*) FROM \(CatalogTable.quote("items_\(name)"))", []) ?? 0
            if count > 0 {
                throw StoreError.incompatibleDefinition(
                    "The definition no longer has the collection `\(name)`, which holds \(EnglishCount.of(count, "item")) in this database. "
                        + "Put it back, or delete its items first; rowserver never drops data.")
            }
        }
    }

    private static func create(_ table: CatalogTable, _ db: Database) throws {
        var columns = ["pk INTEGER PRIMARY KEY", "id TEXT NOT NULL UNIQUE", "version INTEGER NOT NULL"]
        for field in table.collection.storedFields { try record(field, of: table, db) }
        for column in valueColumns(of: table) + derivedColumns(of: table) { columns.append("\(CatalogTable.quote(column.name)) \(column.type)") }
        if table.ordered { columns.append("ord INTEGER") }
        try recordPrefix(of: table, db)
        try db.execute(sql: "CREATE TABLE \(CatalogTable.quote(table.name)) (\(columns.joined(separator: ", ")))")
        if table.searchTable != nil { try db.execute(sql: TitleOrder.createSearchSQL(table)) }
    }

    /// Adds what the definition added; true when derived columns must be recomputed. The same
    /// decisions and refusals on both databases; `dialect` says how each writes a column.
    static func evolve(_ table: CatalogTable, _ db: any SQLConnection, dialect: SchemaDialect) throws -> Bool {
        let collection = table.collection
        var recorded: [String: String] = [:]
        try db.each("SELECT field, type FROM catalog_fields WHERE collection = ?", [collection.name.databaseValue]) { row in
            if let field = row.text(0), let type = row.text(1), recorded[field] == nil { recorded[field] = type }
            return true
        }
        if let prefix = recorded[Self.prefixKey], prefix != collection.kind.rawValue {
            throw StoreError.incompatibleDefinition(
                "The id prefix of `\(collection.name)` was \(prefix) and is now \(collection.kind.rawValue); its items' ids would no longer "
                    + "be read. Put the prefix back, or make a new collection and import the items into it.")
        }
        if recorded[Self.prefixKey] == nil { try recordPrefix(of: table, db) }
        for name in recorded.keys.sorted() where name != Self.prefixKey && collection.field(named: name)?.isStored != true {
            throw StoreError.incompatibleDefinition(
                "The definition no longer has the stored field `\(name)` of `\(collection.name)`, which this database holds. "
                    + "Put the field back (readOnly if it should not be written); rowserver never drops data.")
        }
        // Whether the table has items: one seek, where COUNT(*) reads a whole index on every
        // start; it is counted only for the message.
        let hasItems = try db.integer("SELECT 1 FROM \(CatalogTable.quote(table.name)) LIMIT 1", []) != nil
        for (slot, field) in collection.storedFields.enumerated() {
            if let type = recorded[field.name] {
                guard type == signature(field.type) else {
                    throw StoreError.incompatibleDefinition(
                        "The field `\(field.name)` of `\(collection.name)` was \(type) and is now \(signature(field.type)). "
                            + "Give the new type a new field name, copy the values over with an import, then remove the old field.")
                }
                continue
            }
            if hasItems, field.rules.required, field.defaultValue == nil {
                let items = try db.integer("SELECT COUNT(*) FROM \(CatalogTable.quote(table.name))", []) ?? 0
                throw StoreError.incompatibleDefinition(
                    "The new field `\(field.name)` of `\(collection.name)` is required and has no default, but \(EnglishCount.of(items, "item")) \(items == 1 ? "exists" : "exist"). "
                        + "Give it a default, or make it optional.")
            }
            for (offset, column) in table.valueColumns[slot].enumerated() {
                let type = dialect.columnType(CatalogTable.sqlType(of: field, column: offset))
                try db.run("ALTER TABLE \(CatalogTable.quote(table.name)) ADD COLUMN \(CatalogTable.quote(column)) \(type)", [])
            }
            if let value = field.defaultValue {
                try fill(table, slot: slot, with: value, db)
            }
            try record(field, of: table, db)
        }
        let existing = try dialect.columns(table.name)
        var changed = false
        for column in derivedColumns(of: table) where !existing.contains(column.name) {
            try db.run(
                "ALTER TABLE \(CatalogTable.quote(table.name)) ADD COLUMN \(CatalogTable.quote(column.name)) \(dialect.columnType(column.type))", [])
            changed = true
        }
        return changed
    }

    private static func fill(_ table: CatalogTable, slot: Int, with value: FieldValue, _ db: any SQLConnection) throws {
        let columns = table.valueColumns[slot]
        let values: [any DatabaseValueConvertible]
        switch value {
        case .money(let money): values = [money.minorUnits, money.currency]
        case .text(let text): values = [text]
        case .integer(let integer): values = [integer]
        case .boolean(let flag): values = [flag ? 1 : 0]
        case .reference(let id): values = [id.rawValue]
        case .numbers(let numbers): values = [CatalogColumns.numbersBlob(numbers)]
        case .names(let names): values = [CatalogColumns.namesJSON(names)]
        case .null: return
        }
        let assignments = columns.map { "\(CatalogTable.quote($0)) = ?" }.joined(separator: ", ")
        try db.run("UPDATE \(CatalogTable.quote(table.name)) SET \(assignments)", values.map(\.databaseValue))
    }

    /// The `catalog_fields` entry that records a collection's id prefix (no field name has a `#`).
    static let prefixKey = "#idPrefix"

    static func recordPrefix(of table: CatalogTable, _ db: any SQLConnection) throws {
        try db.run(recordSQL, [table.collection.name.databaseValue, prefixKey.databaseValue, table.collection.kind.rawValue.databaseValue])
    }

    static func record(_ field: FieldDefinition, of table: CatalogTable, _ db: any SQLConnection) throws {
        try db.run(recordSQL, [table.collection.name.databaseValue, field.name.databaseValue, signature(field.type).databaseValue])
    }

    private static let recordSQL =
        "INSERT INTO catalog_fields (collection, field, type) VALUES (?, ?, ?) ON CONFLICT (collection, field) DO UPDATE SET type = excluded.type"

    /// Records what `table`'s derived columns are now computed from.
    static func recordDerivation(of table: CatalogTable, catalog: Catalog, _ db: any SQLConnection) throws {
        try db.run(
            "INSERT INTO catalog_derivations (collection, derivation) VALUES (?, ?) ON CONFLICT (collection) DO UPDATE SET derivation = excluded.derivation",
            [table.collection.name.databaseValue, derivation(of: table, catalog: catalog).databaseValue])
    }

    /// A field type as recorded: what a stored value's shape depends on.
    static func signature(_ type: FieldType) -> String {
        switch type {
        case .decimal(let scale): "decimal(\(scale))"
        case .reference(let collection): "reference(\(collection))"
        case .names(let kind): "names(\(kind.rawValue))"
        case .numbers: "numbers"
        case .enumeration: "enum"
        default: type.name
        }
    }

    /// What the derived columns are computed from; a change means recomputing them.
    static func derivation(of table: CatalogTable, catalog: Catalog) -> String {
        let collection = table.collection
        var parts = [
            "sorts:" + table.keyColumns.keys.sorted().map { "\(collection.fields[$0].name)=\(collection.fields[$0].type)" }.joined(separator: ",")
        ]
        if let sections = collection.sections {
            let field = collection.fields[sections.field]
            var text = "sections:\(field.name)=\(field.type)"
            if let target = field.type.referencedCollection.flatMap(catalog.collection(named:)) { text += " title:\(target.row.title)" }
            parts.append(text)
        }
        // "search/2": title and subtitle keys by position (a blank title no longer moves the
        // subtitle into the title key).
        parts.append("search/2:\(collection.search.map { "\($0)" }.joined(separator: ";"))")
        parts.append("fields:" + collection.fields.map { "\($0.name)=\($0.type)/\(String(describing: $0.computed))" }.joined(separator: ","))
        // "templates/2": a placeholder with no value drops its separator (`Template.fill`); the
        // search and section keys a template made by the old rule are made again once.
        var keyed = collection.search.map { (spec: $0, in: collection) }
        if let sections = collection.sections,
            let target = collection.fields[sections.field].type.referencedCollection.flatMap(catalog.collection(named:))
        {
            keyed.append((target.row.title, target))
        }
        if keyed.contains(where: { showsTemplate($0.spec, in: $0.in) }) { parts.append("templates/2") }
        // The stored child counts, which no writer keeps while the collection is no outline:
        // counted again when it becomes one.
        if let tree = collection.tree { parts.append("tree:\(collection.fields[tree.field].name)") }
        return parts.joined(separator: "\n")
    }

    /// Whether `spec` is a template, itself or through the computed field it shows.
    private static func showsTemplate(_ spec: ValueSpec, in collection: CollectionDefinition) -> Bool {
        switch spec.source {
        case .template: return true
        case .field(let index):
            guard collection.fields.indices.contains(index), let computed = collection.fields[index].computed else { return false }
            if case .template = computed.source { return true }
            return false
        }
    }

    /// Whether the recorded derivation differs from `table`'s.
    static func derivationChanged(_ table: CatalogTable, catalog: Catalog, _ db: any SQLConnection) throws -> Bool {
        let recorded = try db.texts("SELECT derivation FROM catalog_derivations WHERE collection = ?", [table.collection.name.databaseValue])
        return recorded.first != derivation(of: table, catalog: catalog)
    }

    /// Every value column with its SQLite type, in slot order.
    static func valueColumns(of table: CatalogTable) -> [(name: String, type: String)] {
        table.collection.storedFields.enumerated().flatMap { slot, field in
            table.valueColumns[slot].enumerated().map { offset, column in (column, CatalogTable.sqlType(of: field, column: offset)) }
        }
    }

    static func derivedColumns(of table: CatalogTable) -> [(name: String, type: String)] {
        let keys = table.keyColumns.keys.sorted().flatMap { table.keyColumns[$0] ?? [] } + table.sectionColumns
        return keys.map { ($0.column, $0.isText ? "TEXT NOT NULL DEFAULT ''" : "INTEGER NOT NULL DEFAULT 0") }
            + [("title_key", "TEXT"), ("subtitle_key", "TEXT")]
            + (table.treeColumn == nil ? [] : [(CatalogTable.childCountColumn, "INTEGER NOT NULL DEFAULT 0")])
    }

    /// Creates the planned indexes and drops this table's others.
    private static func syncIndexes(_ table: CatalogTable, _ db: Database) throws {
        let planned = indexes(of: table)
        let existing = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE ?",
            arguments: [table.name, "\(table.name)__%"])
        for name in existing where planned[name] == nil {
            try db.execute(sql: "DROP INDEX \(CatalogTable.quote(name))")
        }
        for (name, columns) in planned.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(CatalogTable.quote(name)) ON \(CatalogTable.quote(table.name)) (\(columns))")
        }
    }

    /// Name → column list. Every order ends with `id` ascending, so each key order has an index
    /// per direction (SQLite could walk one backwards, but that would reverse the id too).
    /// An outline (`treeColumn`) has each order twice: as a whole list's, and led by its parent
    /// column (`__tree_…`), so that one level of it, the roots' included (`IS NULL`), reads one
    /// range of an index, as a flat page does.
    static func indexes(of table: CatalogTable) -> [String: String] {
        var indexes = orderIndexes(of: table, ledBy: table.parentColumn, named: "\(table.name)__")
        let collection = table.collection
        // An outline's parent reference is indexed by `__tree` (its column, then the id).
        for reference in collection.references where reference.index != collection.parent?.field && reference.index != collection.tree?.field {
            if let slot = reference.field.slot {
                indexes["\(table.name)__ref_\(reference.field.name)"] = CatalogTable.quote(table.valueColumns[slot][0])
            }
        }
        if table.ordered { indexes["\(table.name)__ord"] = "ord" }
        if let parent = table.parentColumn, table.keyColumns.isEmpty {
            indexes["\(table.name)__parent"] = "\(CatalogTable.quote(parent)), id"
        }
        if let tree = table.treeColumn {
            indexes.merge(orderIndexes(of: table, ledBy: tree, named: "\(table.name)__tree_")) { planned, _ in planned }
            indexes["\(table.name)__tree"] = "\(CatalogTable.quote(tree)), id"
        }
        return indexes
    }

    /// An index per order and direction (sorts, the default order, sections), each led by
    /// `column` when given, named `prefix` and the order's name.
    private static func orderIndexes(of table: CatalogTable, ledBy column: String?, named prefix: String) -> [String: String] {
        let collection = table.collection
        let lead = column.map { [CatalogTable.quote($0)] } ?? []
        func list(_ keys: [CatalogTable.OrderColumn], descending: Bool, head: [String] = [], subtitle: Bool = false) -> String {
            (lead + head + keys.map { CatalogTable.quote($0.column) + (descending ? " DESC" : "") } + ["id"] + (subtitle ? ["subtitle_key"] : []))
                .joined(separator: ", ")
        }
        var indexes: [String: String] = [:]
        var orders: [(String, [CatalogTable.OrderColumn])] = []
        for index in table.keyColumns.keys.sorted() {
            orders.append((collection.fields[index].name, table.keyColumns[index] ?? []))
        }
        let defaultKeys = collection.defaultSort.flatMap { table.orderColumns(ofSort: $0.field) ?? [] }
        if collection.defaultSort.count > 1 { orders.append(("default", defaultKeys)) }
        for (name, keys) in orders {
            // An index that also holds the subtitle has its own name, so a database from before it
            // gets it (the old one is dropped: it is not planned).
            let subtitle = table.titleIndexHoldsSubtitle && keys.first?.column == table.titleOrderColumn
            let suffix = subtitle ? "_text" : ""
            indexes["\(prefix)\(name)\(suffix)"] = list(keys, descending: false, subtitle: subtitle)
            indexes["\(prefix)\(name)\(suffix)_desc"] = list(keys, descending: true, subtitle: subtitle)
        }
        if !table.sectionColumns.isEmpty {
            let head = table.sectionColumns.map { CatalogTable.quote($0.column) }
            indexes["\(prefix)sections"] = list(defaultKeys, descending: false, head: head)
            indexes["\(prefix)sections_desc"] = list(defaultKeys, descending: true, head: head)
        }
        return indexes
    }
}
