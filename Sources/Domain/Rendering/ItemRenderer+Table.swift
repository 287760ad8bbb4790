/// The table view's columns (seed 002): as declared, one per name for `forEach` (SwiftUI's
/// `TableColumnForEach`). Its rows are written by their plan (`TableRowPlan`).
extension ItemRenderer {
    /// The columns in the request's locale. `names` are what `forEach` columns stand for (a
    /// child list's parent item's names: a track's channels); without them those columns are left out.
    public func tableColumns(names: [NamedEntry] = [], in context: RenderContext) -> [TableColumn] {
        guard let table = collection.table else { return [] }
        var columns: [TableColumn] = []
        for column in table.columns {
            switch column {
            case .value(let id, let title, _, let alignment):
                columns.append(TableColumn(id: id, title: title[context.locale], sortable: collection.sort(named: id) != nil, alignment: alignment))
            case .percent(let id, let title, _, _), .days(let id, let title, _, _):
                columns.append(TableColumn(id: id, title: title[context.locale], sortable: false, alignment: .numeric))
            case .forEach:
                for entry in names {
                    columns.append(TableColumn(id: entry.id.rawValue, title: entry.name, sortable: false, alignment: .numeric))
                }
            }
        }
        return columns
    }

    /// The names `forEach` columns stand for on a list under `parent` (nil for a top-level list).
    public func forEachNames(parent: Item?) -> [NamedEntry] {
        guard let parent, let table = collection.table else { return [] }
        for case .forEach(let field) in table.columns {
            guard collection.fields.indices.contains(field), let labels = collection.fields[field].labels,
                let target = target(ofField: labels.reference), target.fields.indices.contains(labels.names),
                let slot = target.fields[labels.names].slot
            else { continue }
            return parent[slot: slot].names ?? []
        }
        return []
    }
}
