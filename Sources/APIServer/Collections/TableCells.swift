import Domain
import HTTPServer

/// What a table's rows write as cells: the collection's plan, the names its `forEach` columns
/// stand for (a child list's parent's, or none), and each cell's key in order (one per name for
/// a `forEach` column), encoded once. A class, made once a collection (or a page, for names):
/// a page's rows then share one reference rather than copying its arrays.
final class TableCells: Sendable {
    let plan: TableRowPlan
    let names: [NamedEntry]
    let keys: [JSONWriter.Key]
    /// What a compact line made of a `forEach` field's cells writes before each cell: `Left `,
    /// then `, Right ` (escaped once, not per row).
    let compactPrefixes: [JSONWriter.EscapedText]

    init(plan: TableRowPlan, names: [NamedEntry] = []) {
        self.plan = plan
        self.names = names
        compactPrefixes = names.indices.map { JSONWriter.EscapedText(($0 > 0 ? ", " : "") + names[$0].name + " ") }
        keys = plan.cells.flatMap { cell -> [JSONWriter.Key] in
            switch cell {
            case .value(let column, _), .percent(let column, _, _), .days(let column, _, _): [JSONWriter.Key(column)]
            case .forEach: names.map { JSONWriter.Key($0.id.rawValue) }
            }
        }
    }
}
