import Domain
import HTTPServer

/// The heads of a collection's table pages (`"columns"` and `"sort"`, each sortable column with
/// its two sort links), kept per query and locale.
///
/// Every page of a table repeats its head (two list links per sortable column, each built and
/// percent-encoded). The head depends on the list's parent, its parameters but the cursor, and
/// the locale (the columns' labels); the memo's limit bounds its memory whatever the queries
/// (a search's text is part of the key).
typealias TableHeads = BoundedMemo<TableHeadKey, [UInt8]>

struct TableHeadKey: Hashable, Sendable {
    /// The list, without the cursor: every page of it has the same head.
    var list: ListShapes.Key
    var locale: RenderLocale

    init(parent: EntityID?, parameters: ListParameters, locale: RenderLocale) {
        list = ListShapes.Key(parent: parent, parameters: parameters)
        self.locale = locale
    }
}
