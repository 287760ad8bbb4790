/// What each cell of a collection's table row is read from, decided once per collection (the
/// table's counterpart of `RowPlan`): a value column as a row part is, a percent column from its
/// stored money. A table with a column that needs more (a per-name `forEach`, a span of days)
/// has no plan, and its rows are made from whole items by `ItemRenderer.tableRow`.
public struct TableRowPlan: Sendable, Equatable {
    public enum Cell: Sendable, Equatable {
        /// A value column; nothing to show is `—`.
        case value(column: String, RowPlan.Part)
        /// `percent` percent of a stored money value; `—` when null or too large.
        case percent(column: String, slot: Int, percent: Int64)
    }

    public let cells: [Cell]
    public let compactTitle: RowPlan.Part
    public let compactSubtitle: RowPlan.Part

    /// Whether any cell or the compact line needs the whole item (decided once: a table writes
    /// a row per item).
    public let needsItem: Bool

    /// The stored slots the cells and the compact line read, ascending; nil when one needs the
    /// whole item (every slot).
    public let slots: [Int]?

    init?(_ collection: CollectionDefinition) {
        guard let table = collection.table else { return nil }
        var cells: [Cell] = []
        for column in table.columns {
            switch column {
            case .value(let id, _, let value, _): cells.append(.value(column: id, RowPlan.part(value, collection)))
            case .percent(let id, _, let field, let percent):
                guard collection.fields.indices.contains(field), let slot = collection.fields[field].slot,
                    case .money = collection.fields[field].type
                else { return nil }
                cells.append(.percent(column: id, slot: slot, percent: percent))
            case .forEach, .days: return nil
            }
        }
        self.cells = cells
        compactTitle = RowPlan.part(table.compactTitle, collection)
        compactSubtitle = table.compactSubtitle.map { RowPlan.part($0, collection) } ?? .absent
        let parts = cells.map { cell -> RowPlan.Part in
            if case .value(_, let part) = cell { return part }
            return .absent
        }
        needsItem = RowPlan.needItem(parts + [compactTitle, compactSubtitle])
        let percents = cells.compactMap { cell -> Int? in
            if case .percent(_, let slot, _) = cell { return slot }
            return nil
        }
        slots = needsItem ? nil : Array(Set(RowPlan.slots(of: parts + [compactTitle, compactSubtitle]) + percents)).sorted()
    }
}
