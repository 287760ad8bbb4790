import Domain
import HTTPServer
import Storage

/// Writes list rows by their collection's `RowPlan`, straight from the store's rows: the same
/// bytes `RowWriter.row` writes for `ItemRenderer.row` of the decoded item, without the item or
/// the render row (issue #16).
struct PlannedRowWriter {
    let renderer: ItemRenderer
    let context: RenderContext
    /// What a `.item` part may show of other items: a child list's parent item, or none.
    let references: ReferencedItems
    /// The detail link is this followed by the row's id.
    let detailBase: String
    /// Kept apart from the renderer: reading it through the renderer per row copied the
    /// renderer (a retain and release of each of its fields) four times a row.
    private let plan: RowPlan

    init(renderer: ItemRenderer, context: RenderContext, references: ReferencedItems, detailBase: String) {
        self.renderer = renderer
        self.context = context
        self.references = references
        self.detailBase = detailBase
        plan = renderer.rowPlan
    }

    func row(_ row: PageRow, into json: inout JSONWriter) throws(StoreError) {
        let item = plan.needsItem ? try row.item() : nil
        // The id's canonical spelling, which the read parsed as an `EntityID`: nothing to escape.
        let id = row.idBytes
        json.beginObject()
        json.key(RowWriter.Keys.id)
        json.string(verbatim: id)
        json.key(RowWriter.Keys.title)
        try write(plan.title, of: row, item: item, orElse: "", into: &json)
        json.key(RowWriter.Keys.subtitle)
        try write(plan.subtitle, of: row, item: item, into: &json)
        json.key(RowWriter.Keys.trailing)
        try write(plan.trailing, of: row, item: item, into: &json)
        json.key(RowWriter.Keys.image)
        try write(plan.image, of: row, item: item, into: &json)
        json.key(RowWriter.Keys.detail)
        json.string(detailBase, verbatim: id)
        json.endObject()
    }

    /// A table row by `plan` (`RowWriter.tableRow` of `ItemRenderer.tableRow`); `cellKeys` are
    /// the plan's cells' column ids, encoded once a page.
    func tableRow(_ row: PageRow, plan: TableRowPlan, cellKeys: [JSONWriter.Key], into json: inout JSONWriter) throws(StoreError) {
        let item = plan.needsItem ? try row.item() : nil
        let id = row.idBytes
        json.beginObject()
        json.key(RowWriter.Keys.id)
        json.string(verbatim: id)
        json.key(RowWriter.Keys.cells)
        json.beginObject()
        // By index: iterating the cells copied each (its column's text and part retained).
        for index in plan.cells.indices where index < cellKeys.count {
            json.key(cellKeys[index])
            switch plan.cells[index] {
            case .value(_, let part): try write(part, of: row, item: item, orElse: Unavailable.text, into: &json)
            case .percent(_, let slot, let percent):
                if case .money(let money) = try row.value(slot: slot), let result = money.increased(byPercent: percent - 100) {
                    json.string(context.currency(result))
                } else {
                    json.string(Unavailable.text)
                }
            }
        }
        json.endObject()
        json.key(RowWriter.Keys.compact)
        json.beginObject()
        json.key(RowWriter.Keys.title)
        try write(plan.compactTitle, of: row, item: item, orElse: "", into: &json)
        json.key(RowWriter.Keys.subtitle)
        try write(plan.compactSubtitle, of: row, item: item, into: &json)
        json.endObject()
        json.key(RowWriter.Keys.detail)
        json.string(detailBase, verbatim: id)
        json.endObject()
    }

    /// One part; nothing to show is `fallback`, or `null` without one (as `ItemRenderer.row`
    /// and `tableRow` do: `""` for a title, `—` for a cell).
    private func write(_ part: RowPlan.Part, of row: PageRow, item: Item?, orElse fallback: String? = nil, into json: inout JSONWriter)
        throws(StoreError)
    {
        let text: String?
        switch part {
        case .absent: text = nil
        case .constant(let constant): text = constant
        case .text(let slot):
            guard let bytes = row.text(slot: slot) else {
                text = nil
                break
            }
            json.beginString()
            Self.append(bytes, into: &json)
            return json.endString()
        case .formatted(let slot, let type):
            if case .money = type, let money = row.money(slot: slot) {
                guard case .amount(let minorUnits, let currency) = money else {
                    text = nil
                    break
                }
                json.beginString()
                context.withCurrency(minorUnits: minorUnits, currencyUTF8: currency) { json.appendToString(utf8: $0) }
                return json.endString()
            }
            text = FieldFormatter(context: context).format(try row.value(slot: slot), as: type)
        case .template(let pieces):
            json.beginString()
            for piece in pieces {
                switch piece {
                case .literal(let literal): json.appendToString(literal)
                case .text(let slot): if let bytes = row.text(slot: slot) { Self.append(bytes, into: &json) }
                case .formatted(let slot, let type):
                    if let formatted = FieldFormatter(context: context).format(try row.value(slot: slot), as: type) { json.appendToString(formatted) }
                }
            }
            return json.endString()
        case .item(let spec): text = item.flatMap { renderer.text(spec, of: $0, references: references, in: context) }
        case .itemImage: text = item.flatMap(renderer.image(of:))
        }
        if let text = text ?? fallback {
            json.string(text)
        } else {
            json.null()
        }
    }

    /// A stored text's bytes inside a string being written: what `String(decoding:)` keeps as it
    /// is goes out as it is; the rare ill-formed text is repaired the same way as an item's.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, into json: inout JSONWriter) {
        if UTF8Validation.isWellFormed(bytes) {
            json.appendToString(utf8: bytes)
        } else {
            json.appendToString(String(decoding: bytes, as: UTF8.self))
        }
    }
}
