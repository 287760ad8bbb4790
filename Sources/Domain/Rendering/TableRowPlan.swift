/// What each cell of a collection's table row is read from, decided once per collection (the
/// table's counterpart of `RowPlan`): a value column as a row part is, a percent column from its
/// stored money, a span of days from two stored dates, a `forEach` column from stored numbers,
/// one cell per name of the list's parent (SwiftUI's `TableColumnForEach`).
public struct TableRowPlan: Sendable, Equatable {
    public enum Cell: Sendable, Equatable {
        /// A value column; nothing to show is `—`.
        case value(column: String, RowPlan.Part)
        /// `percent` percent of a stored money value; `—` when null, too large, or not stored.
        case percent(column: String, slot: Int?, percent: Int64)
        /// Whole days from one stored date (or date-time) to another; `—` when either is empty.
        case days(column: String, from: Int?, to: Int?)
        /// One cell per name the columns stand for (a child list's parent's names), keyed by the
        /// name's id: the stored numbers at `slot`, in order, formatted as `type`; `—` past their end.
        case forEach(field: Int, slot: Int?, type: FieldType)
    }

    public let cells: [Cell]
    public let compactTitle: RowPlan.Part
    public let compactSubtitle: RowPlan.Part
    /// The fields the compact title and subtitle show as they are (`ValueSpec.plainField`): a
    /// compact line showing a `forEach` field is made of that field's cells ("Left 0.50, Right 0.25").
    public let compactTitleField: Int?
    public let compactSubtitleField: Int?

    /// Whether any cell or the compact line needs the whole item (decided once: a table writes
    /// a row per item).
    public let needsItem: Bool

    /// Whether a cell stands for the names of the list's parent: its columns then depend on that
    /// item, not on the definition alone.
    public let hasForEach: Bool

    /// The stored slots the cells and the compact line read, ascending; nil when one needs the
    /// whole item (every slot).
    public let slots: [Int]?

    init?(_ collection: CollectionDefinition) {
        guard let table = collection.table else { return nil }
        func slot(_ field: Int) -> Int? { collection.fields.indices.contains(field) ? collection.fields[field].slot : nil }
        var cells: [Cell] = []
        var parts: [RowPlan.Part] = []
        var read = Set<Int>()
        for column in table.columns {
            switch column {
            case .value(let id, _, let value, _):
                let part = RowPlan.part(value, collection)
                cells.append(.value(column: id, part))
                parts.append(part)
            case .percent(let id, _, let field, let percent): cells.append(.percent(column: id, slot: slot(field), percent: percent))
            case .days(let id, _, let from, let to): cells.append(.days(column: id, from: slot(from), to: slot(to)))
            case .forEach(let field):
                let type = collection.fields.indices.contains(field) ? collection.fields[field].type : .text
                cells.append(.forEach(field: field, slot: slot(field), type: type))
            }
        }
        for case .percent(_, let slot?, _) in cells { read.insert(slot) }
        for case .forEach(_, let slot?, _) in cells { read.insert(slot) }
        for case .days(_, let from, let to) in cells { read.formUnion([from, to].compactMap { $0 }) }
        self.cells = cells
        compactTitle = RowPlan.part(table.compactTitle, collection)
        compactSubtitle = table.compactSubtitle.map { RowPlan.part($0, collection) } ?? .absent
        compactTitleField = table.compactTitle.plainField
        compactSubtitleField = table.compactSubtitle?.plainField
        parts += [compactTitle, compactSubtitle]
        needsItem = RowPlan.needItem(parts)
        hasForEach = cells.contains { if case .forEach = $0 { true } else { false } }
        slots = needsItem ? nil : read.union(RowPlan.slots(of: parts)).sorted()
    }

    /// The day number (days since 1970-01-01) of a date's or a date-time's stored value.
    public static func day(_ value: FieldValue) -> Int64? {
        switch value {
        case .text(let text):
            return DateText.days(text)
        case .integer(let milliseconds):
            // Floor division that cannot overflow, whatever the stored value.
            return milliseconds >= 0 ? milliseconds / 86_400_000 : -((-(milliseconds + 1)) / 86_400_000) - 1
        default:
            return nil
        }
    }
}
