import Domain
import HTTPServer
import Storage

/// The heads of a collection's table pages (`"columns"` and `"sort"`, each sortable column with
/// its two sort links), kept per query and locale, with the cells they head.
///
/// Every page of a table repeats its head (two list links per sortable column, each built and
/// percent-encoded). The head depends on the list's parent, its parameters but the cursor, the
/// locale (the columns' labels), and for a `forEach` column the parent's names, which are part
/// of the key (a rename makes another head, never a stale one); the memo's limit bounds its
/// memory whatever the queries (a search's text is part of the key).
typealias TableHeads = BoundedMemo<TableHeadKey, TableHead>

struct TableHeadKey: Hashable, Sendable {
    /// The list, without the cursor: every page of it has the same head.
    var list: ListShapes.Key
    var locale: RenderLocale
    /// The parent's names a `forEach` column stands for; empty without one.
    var names: [NamedEntry]

    init(parent: EntityID?, parameters: ListParameters, locale: RenderLocale, names: [NamedEntry], level: TreeLevel? = nil) {
        list = ListShapes.Key(parent: parent, parameters: parameters, level: level)
        self.locale = locale
        self.names = names
    }
}

/// A head's JSON fields (no braces), and the cells of the rows under it: their keys and
/// compact-line pieces are the names', made once rather than on every page of the list.
struct TableHead: Sendable {
    let bytes: [UInt8]
    let cells: TableCells
}
