import Domain

/// One collection compiled into its table: the columns its items are kept in, the derived key
/// columns its sorts, sections and search read, and the SQL the store runs for it, built once
/// when the store opens (PostgREST's schema cache: read the declaration once, keep the plan).
///
/// Columns, after `pk`, `id` and `version`:
/// - `f_<field>` per stored field (money adds `f_<field>_cur`): the value as the item holds it;
/// - `k_<field>` per sorted field (money adds `k_<field>_cur`): a never-NULL sort key — folded
///   text, an enum's declaration index, a number — so a keyset position always compares;
/// - `s_key`, `s_id` with sections: the section's order key (the referenced item's folded title
///   or the enum's index) and its id, never NULL ("" for items without one);
/// - `title_key`, `subtitle_key`: the folded texts search reads.
///
/// Names come from the definition, which allows only `[a-z][A-Za-z0-9]*`, and are quoted anyway.
///
/// A class: the store looks a table up by name for every read and write, and as a struct of
/// SQL strings and definitions each lookup copied (retained) all of it.
final class CatalogTable: Sendable {
    let collection: CollectionDefinition
    let name: String
    /// Per stored slot, the columns of its value (two for money).
    let valueColumns: [[String]]
    /// Per stored slot, the type of its field: what decoding a row reads, without copying
    /// field definitions per row.
    let storedTypes: [FieldType]
    /// Per stored slot, the index in `selectList` of its (first) value column.
    let slotColumns: [Int]
    /// Per field index of a sorted field, its key columns (two for money).
    let keyColumns: [Int: [OrderColumn]]
    let sectionColumns: [OrderColumn]
    /// The stored reference fields: field index, slot and the referenced collection's name
    /// (resolved once: a page reads them to fetch what its rows show).
    let references: [(field: Int, slot: Int, target: String)]
    /// The column of the parent reference of a child collection.
    let parentColumn: String?
    /// The slot of that reference in an item's values.
    let parentSlot: Int?
    /// The column of an outline's parent reference (`CollectionDefinition.tree`), which names an
    /// item of this same table.
    let treeColumn: String?
    /// The parent item the change log names for each entry (`changes.parent_id`): a child
    /// collection's parent, or an outline node's parent (nil for a root). A list under one
    /// parent, or one level of an outline, reads its feed by it.
    let loggedParentColumn: String?
    let loggedParentSlot: Int?
    /// The key column of the sort by the title, when the title is a stored plain-text field shown
    /// whole: it then holds exactly what `title_key` holds, so an order that starts with it is
    /// an order by the title key (a search reads the titles that start with its text as one
    /// range), and its indexes also hold `subtitle_key`, so a search walking that order checks
    /// both texts in index entries without reading a row.
    let titleOrderColumn: String?
    /// Every column after `id, version`, in the order `CatalogColumns` writes them.
    let columns: [String]
    let insertSQL: String
    /// `insertSQL` that writes nothing when the id exists.
    let insertNewSQL: String
    let updateSQL: String
    let selectByIDSQL: String
    /// `version, pk, title_key, subtitle_key` by id, then `ord` when `ordered`, then the parent
    /// reference the change log names (`loggedParentColumn`).
    let currentRowSQL: String
    /// Whether the search index is keyed by the title order (`TitleOrder`): the table has an
    /// `ord` column, the search index's rowid, which follows `(titleOrderColumn, id)`, so a
    /// search in that order reads its matches from the position on, in order, a page at a time.
    /// SQLite only, and only for a searched top-level collection with a title order.
    let ordered: Bool
    /// The statements of the title order, when `ordered`.
    let titleOrderSQL: TitleOrderSQL?
    /// A query of the keys (`pk`) of the rows the search index matches with `MATCH ?`: through
    /// the `ord` index when `ordered` (the index's rowid is then `ord`). Nil when not searched.
    let searchMatchSQL: String?
    /// The rows waiting for the search index whose texts contain `?` (`SearchBacklog.matchesSQL`).
    let backlogMatchSQL: String?
    /// Adds / removes a row's search entry: its key in the index (`pk`, or `ord` when
    /// `ordered`), folded title and subtitle as bound values (nil: the collection is not searched).
    let searchInsertSQL: String?
    let searchDeleteSQL: String?
    /// Records the grams of a row's new trigrams (`SearchGrams`).
    let gramsInsertSQL: String?
    /// Its page statements' texts (`CatalogPageQuery.seekStatements`), kept by shape.
    let seekTexts = SeekTexts(limit: 256)

    struct OrderColumn: Sendable, Hashable {
        let column: String
        let isText: Bool
    }

    /// `ordered`: key the search index by the title order when the collection allows it.
    init(_ collection: CollectionDefinition, ordered: Bool = false) {
        self.collection = collection
        name = "items_\(collection.name)"
        var valueColumns: [[String]] = []
        for field in collection.storedFields {
            if case .money = field.type {
                valueColumns.append(["f_\(field.name)", "f_\(field.name)_cur"])
            } else {
                valueColumns.append(["f_\(field.name)"])
            }
        }
        self.valueColumns = valueColumns
        storedTypes = collection.storedFields.map(\.type)
        var slotColumns: [Int] = []
        var next = 2
        for columns in valueColumns {
            slotColumns.append(next)
            next += columns.count
        }
        self.slotColumns = slotColumns
        var keyColumns: [Int: [OrderColumn]] = [:]
        for sort in collection.sorts where keyColumns[sort.field] == nil {
            keyColumns[sort.field] = Self.keyColumns(of: collection.fields[sort.field])
        }
        self.keyColumns = keyColumns
        if let sections = collection.sections {
            let isText = collection.fields[sections.field].type.referencedCollection != nil
            sectionColumns = [OrderColumn(column: "s_key", isText: isText), OrderColumn(column: "s_id", isText: true)]
        } else {
            sectionColumns = []
        }
        references = collection.references.compactMap { reference in reference.field.slot.map { (reference.index, $0, reference.target) } }
        parentColumn = collection.parent.map { "f_\(collection.fields[$0.field].name)" }
        parentSlot = collection.parent.flatMap { collection.fields[$0.field].slot }
        treeColumn = collection.parent == nil ? collection.treeSlot.flatMap { valueColumns.indices.contains($0) ? valueColumns[$0][0] : nil } : nil
        loggedParentColumn = parentColumn ?? treeColumn
        loggedParentSlot = parentColumn != nil ? parentSlot : treeColumn == nil ? nil : collection.treeSlot
        titleOrderColumn = Self.titleOrderColumn(of: collection, keyColumns: keyColumns)
        let table = name
        let search = collection.isSearchable ? "\(table)_search" : nil
        // The title order column and search index of an ordered table.
        let orderedBy = ordered && parentColumn == nil ? titleOrderColumn.flatMap { column in search.map { (column, $0) } } : nil
        self.ordered = orderedBy != nil
        titleOrderSQL = orderedBy.map { TitleOrderSQL(table: table, column: $0.0, search: $0.1) }
        searchMatchSQL = search.map(Self.quote).map { search in
            orderedBy == nil
                ? "SELECT rowid AS pk FROM \(search) WHERE \(search) MATCH ?"
                : "SELECT m.pk FROM \(search) JOIN \(Self.quote(table)) AS m ON m.ord = \(search).rowid WHERE \(search) MATCH ?"
        }
        backlogMatchSQL = search.map { _ in SearchBacklog.matchesSQL(table: table, titleColumn: orderedBy?.0 ?? "title_key") }
        let keys = keyColumns.keys.sorted().flatMap { keyColumns[$0] ?? [] }.map(\.column)
        columns = valueColumns.flatMap { $0 } + keys + sectionColumns.map(\.column) + ["title_key", "subtitle_key"]
        let all = ["id", "version"] + columns
        let quoted = all.map(Self.quote)
        insertSQL =
            "INSERT INTO \(Self.quote(name)) (\(quoted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: all.count).joined(separator: ", ")))"
        insertNewSQL = insertSQL + " ON CONFLICT (id) DO NOTHING"
        // An ordered row's place is found again when its search entry is added (`TitleOrder`).
        updateSQL =
            "UPDATE \(Self.quote(name)) SET \((["version"] + columns).map { "\(Self.quote($0)) = ?" }.joined(separator: ", "))"
            + (self.ordered ? ", ord = NULL" : "") + " WHERE id = ?"
        selectList = all.map { "t.\(Self.quote($0))" }.joined(separator: ", ")
        selectByIDSQL = "SELECT \(all.map { "t.\(Self.quote($0))" }.joined(separator: ", ")) FROM \(Self.quote(name)) AS t WHERE t.id = ?"
        currentRowSQL =
            "SELECT version, pk, title_key, subtitle_key\(self.ordered ? ", ord" : "")\(loggedParentColumn.map { ", " + Self.quote($0) } ?? "")"
            + " FROM \(Self.quote(name)) WHERE id = ?"
        if collection.isSearchable {
            let search = Self.quote("\(name)_search")
            searchInsertSQL = "INSERT INTO \(search) (rowid, title_key, subtitle_key) VALUES (?, ?, ?)"
            searchDeleteSQL = "INSERT INTO \(search) (\(search), rowid, title_key, subtitle_key) VALUES ('delete', ?, ?, ?)"
        } else {
            searchInsertSQL = nil
            searchDeleteSQL = nil
        }
        gramsInsertSQL = collection.isSearchable ? SearchGrams.insertSQL(ofTable: name) : nil
    }

    /// The search index, when the collection is searched.
    var searchTable: String? { collection.isSearchable ? "\(name)_search" : nil }

    /// `id, version, columns…` on alias `t`.
    let selectList: String

    /// The columns an item is decoded from (`CatalogColumns.decode`: id, version, the value
    /// columns, at their places in `selectList`) on another alias (a joined table's).
    func itemSelectList(on alias: String) -> String {
        (["id", "version"] + valueColumns.flatMap { $0 }).map { "\(alias).\(Self.quote($0))" }.joined(separator: ", ")
    }

    /// `insertNewSQL` of `count` rows, answering the `id` and `pk` of each row it inserted.
    func insertNewSQL(rows count: Int) -> String {
        let row = "(" + repeatElement("?", count: 2 + columns.count).joined(separator: ", ") + ")"
        return insertSQL + String(repeating: ", " + row, count: max(0, count - 1)) + " ON CONFLICT (id) DO NOTHING RETURNING id, pk"
    }

    /// The parent item `item` is listed under, for a child collection or an outline: what its
    /// change-log entries name, so that a child list's feed reads only its own.
    func parentID(of item: Item) -> String? {
        loggedParentSlot.flatMap { item[slot: $0].reference?.rawValue }
    }

    /// The stored number of an outline row's children, as a page selects it with each row
    /// (`RowLayout.childCount`): a column the writer keeps (`CatalogWriter.countChildren`), so a
    /// level of an outline reads what a flat page reads, where counting each row's children
    /// read one range of the parent index per row (a page of nodes with 50 children each cost
    /// 1.5–3.6× a flat page).
    var childCountSQL: String? { treeColumn.map { _ in "t.\(Self.quote(Self.childCountColumn))" } }

    /// The column of an outline row's number of children (`CatalogSchema.derivedColumns`).
    static let childCountColumn = "child_count"

    /// Sets every outline row's stored number of children from its children, where it differs:
    /// what a load that wrote rows without counting them (a migration, a restore) runs once.
    var recountChildrenSQL: String? {
        treeColumn.map { parent in
            let table = Self.quote(name)
            let count = "(SELECT count(*) FROM \(table) AS c WHERE c.\(Self.quote(parent)) = \(table).id)"
            return "UPDATE \(table) SET \(Self.childCountColumn) = \(count) WHERE \(Self.childCountColumn) <> \(count)"
        }
    }

    /// The key columns of an order by sort `name`.
    func orderColumns(ofSort name: String) -> [OrderColumn]? {
        collection.sort(named: name).flatMap { keyColumns[$0.field] }
    }

    static func keyColumns(of field: FieldDefinition) -> [OrderColumn] {
        switch field.type {
        case .money: [OrderColumn(column: "k_\(field.name)_cur", isText: true), OrderColumn(column: "k_\(field.name)", isText: false)]
        case .integer, .decimal, .dateTime, .boolean, .enumeration: [OrderColumn(column: "k_\(field.name)", isText: false)]
        default: [OrderColumn(column: "k_\(field.name)", isText: true)]
        }
    }

    private static func titleOrderColumn(of collection: CollectionDefinition, keyColumns: [Int: [OrderColumn]]) -> String? {
        guard let index = collection.search.first?.plainField, let columns = keyColumns[index], columns.count == 1, columns[0].isText
        else { return nil }
        let field = collection.fields[index]
        guard field.isStored, field.computed == nil, field.type.isPlainText else { return nil }
        return columns[0].column
    }

    /// Whether the indexes of orders starting with `titleOrderColumn` also hold `subtitle_key`.
    var titleIndexHoldsSubtitle: Bool { titleOrderColumn != nil && collection.search.count > 1 }

    static func quote(_ identifier: String) -> String { "\"\(identifier)\"" }

    /// The SQL type of a value column.
    static func sqlType(of field: FieldDefinition, column: Int) -> String {
        switch field.type {
        case .money: column == 0 ? "INTEGER" : "TEXT"
        case .integer, .decimal, .dateTime, .boolean: "INTEGER"
        case .numbers: "BLOB"
        default: "TEXT"
        }
    }
}
