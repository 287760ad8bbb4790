import Domain
import Foundation
import HTTPServer

@testable import APIServer

/// Rows as the one row writer writes them (`PlannedRowWriter` over an item in memory), read
/// back as values, so that tests of what rows show compare them as data.
extension ItemRenderer {
    func row(_ item: Item, references: ReferencedItems = .none, in context: RenderContext) -> RenderRow {
        let writer = PlannedRowWriter(renderer: self, context: context, references: references, detailBase: "/")
        var json = JSONWriter(capacity: 256)
        try? writer.row(item, into: &json)
        let object = Self.object(json.bytes)
        return RenderRow(
            id: item.id, title: object["title"] as? String ?? "", subtitle: object["subtitle"] as? String,
            trailing: object["trailing"] as? String, image: object["image"] as? String)
    }

    /// The cells in column order (`tableColumns(names:)`), as the table's head lists them.
    func tableRow(_ item: Item, names: [NamedEntry] = [], references: ReferencedItems, in context: RenderContext) -> TableRow {
        guard let plan = tableRowPlan else { return TableRow(id: item.id, cells: [], compact: CompactSummary(title: "")) }
        let writer = PlannedRowWriter(renderer: self, context: context, references: references, detailBase: "/")
        var json = JSONWriter(capacity: 256)
        try? writer.tableRow(item, table: TableCells(plan: plan, names: names), into: &json)
        let object = Self.object(json.bytes)
        let cells = object["cells"] as? [String: Any] ?? [:]
        let compact = object["compact"] as? [String: Any] ?? [:]
        return TableRow(
            id: item.id,
            cells: tableColumns(names: names, in: context).compactMap { column in
                (cells[column.id] as? String).map { TableCell(column: column.id, text: $0) }
            },
            compact: CompactSummary(title: compact["title"] as? String ?? "", subtitle: compact["subtitle"] as? String))
    }

    private static func object(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
