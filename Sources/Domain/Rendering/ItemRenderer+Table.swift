/// The table view (seed 002): columns as declared, one per name for `forEach` (SwiftUI's
/// `TableColumnForEach`), cells formatted like rows, and the compact summary.
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

    /// One table row: a cell per column (`—` where a value is missing or cannot be computed).
    /// `nameIDs` are the names' ids as text, when the caller has them for the whole page.
    public func tableRow(
        _ item: Item, names: [NamedEntry] = [], nameIDs: [String]? = nil, references: ReferencedItems, in context: RenderContext
    ) -> TableRow {
        guard let table = tablePlan else {
            return TableRow(id: item.id, cells: [], compact: CompactSummary(title: title(of: item, in: context)))
        }
        let ids = nameIDs ?? names.map(\.id.rawValue)
        /// The forEach field's formatted numbers, reused when the compact summary shows that field.
        var forEachTexts: (field: Int, texts: [String])?
        var cells: [TableCell] = []
        cells.reserveCapacity(table.columns.count + ids.count)
        for column in table.columns {
            switch column {
            case .value(let id, let value):
                cells.append(TableCell(column: id, text: text(value, of: item, references: references, in: context) ?? Unavailable.text))
            case .percent(let id, let field, let percent):
                cells.append(TableCell(column: id, text: percentCell(field: field, percent: percent, of: item, in: context)))
            case .days(let id, let from, let to):
                cells.append(TableCell(column: id, text: daysCell(from: from, to: to, of: item, in: context)))
            case .forEach(let field):
                guard let plan = plan(field) else {
                    cells += ids.map { TableCell(column: $0, text: Unavailable.text) }
                    continue
                }
                let numbers: [Double]
                var stored = false
                if let slot = plan.slot, case .numbers(let values) = item[slot: slot] {
                    numbers = values
                    stored = true
                } else {
                    numbers = []
                }
                let formatter = FieldFormatter(context: context)
                var texts: [String] = []
                texts.reserveCapacity(ids.count)
                for (index, id) in ids.enumerated() {
                    let text = numbers.indices.contains(index) ? formatter.number(numbers[index], type: plan.type) : Unavailable.text
                    cells.append(TableCell(column: id, text: text))
                    texts.append(text)
                }
                // A null field shows nothing in the compact line (its cells still show "—").
                if stored { forEachTexts = (field, texts) }
            }
        }
        // A compact line that shows the forEach field ("Left 0.50, Right 0.25") is made of the
        // cells just formatted rather than formatting every number again.
        func compactText(_ spec: ValueSpec) -> String? {
            if let cached = forEachTexts, spec.plainField == cached.field, names.count == cached.texts.count {
                guard !names.isEmpty else { return nil }
                var line = ""
                for (entry, text) in zip(names, cached.texts) {
                    if !line.isEmpty { line += ", " }
                    line += entry.name
                    line += " "
                    line += text
                }
                return line
            }
            return text(spec, of: item, references: references, in: context)
        }
        let compact = CompactSummary(title: compactText(table.compactTitle) ?? "", subtitle: table.compactSubtitle.flatMap(compactText))
        return TableRow(id: item.id, cells: cells, compact: compact)
    }

    /// `percent` percent of a money field (115: the amount with a 15 % tip), rounded half away
    /// from zero in minor units; `—` when the field is null or the result does not fit.
    private func percentCell(field: Int, percent: Int64, of item: Item, in context: RenderContext) -> String {
        guard let slot = plan(field)?.slot, case .money(let money) = item[slot: slot], let result = money.increased(byPercent: percent - 100)
        else { return Unavailable.text }
        return context.currency(result)
    }

    /// Whole days from `from` to `to`; `—` when either is empty.
    private func daysCell(from: Int, to: Int, of item: Item, in context: RenderContext) -> String {
        guard let start = day(from, of: item), let end = day(to, of: item) else { return Unavailable.text }
        return context.days(end - start)
    }

    /// The day number (days since 1970-01-01) of a date or date-time field's value.
    private func day(_ field: Int, of item: Item) -> Int64? {
        guard let slot = plan(field)?.slot else { return nil }
        switch item[slot: slot] {
        case .text(let text):
            return DateText.date(text).map { Int64(DateText.daysFromCivil(year: $0.year, month: $0.month, day: $0.day)) }
        case .integer(let milliseconds):
            // Floor division that cannot overflow, whatever the stored value.
            return milliseconds >= 0 ? milliseconds / 86_400_000 : -((-(milliseconds + 1)) / 86_400_000) - 1
        default:
            return nil
        }
    }
}
