import Domain
import HTTPServer
import Storage

/// Writes list rows and table rows by their collection's plans (`RowPlan`, `TableRowPlan`): the
/// one writer of every row a list or its change feed shows, whether read straight from the
/// store's rows (no `Item`, no `String` for a stored text, issue #16) or as whole items with
/// the items their references point to.
struct PlannedRowWriter {
    let renderer: ItemRenderer
    let context: RenderContext
    /// What a `.item` part may show of other items: a page's references and a child list's
    /// parent item, or none.
    let references: ReferencedItems
    /// The detail link is this followed by the row's id.
    let detailBase: String
    /// Kept apart from the renderer: reading it through the renderer per row copied the
    /// renderer (a retain and release of each of its fields) four times a row.
    private let plan: RowPlan
    /// What a blank title shows (`ItemRenderer.untitled`), in the context's locale.
    private let untitled: String
    /// Whether rows are an outline's nodes: each then says how many children it has and links them.
    private let outline: Bool

    init(renderer: ItemRenderer, context: RenderContext, references: ReferencedItems, detailBase: String) {
        self.renderer = renderer
        self.context = context
        self.references = references
        self.detailBase = detailBase
        plan = renderer.rowPlan
        untitled = renderer.untitled(in: context)
        outline = renderer.collection.tree != nil
    }

    /// `{"id", "title", "subtitle", "trailing", "image", "detail"}`, absent values as `null`.
    func row(_ row: some RowValues, into json: inout JSONWriter) throws(StoreError) {
        var item = WholeItem()
        try row.withID { id throws(StoreError) in
            json.beginObject()
            json.key(RowWriter.Keys.id)
            json.string(verbatim: id)
            json.key(RowWriter.Keys.title)
            try title(plan.title, of: row, item: &item, into: &json)
            json.key(RowWriter.Keys.subtitle)
            try write(plan.subtitle, of: row, item: &item, into: &json)
            json.key(RowWriter.Keys.trailing)
            try write(plan.trailing, of: row, item: &item, into: &json)
            json.key(RowWriter.Keys.image)
            try write(plan.image, of: row, item: &item, into: &json)
            json.key(RowWriter.Keys.detail)
            json.string(detailBase, verbatim: id)
            if outline { writeChildren(row, id: id, into: &json) }
            json.endObject()
        }
    }

    private static let childrenPath = JSONWriter.EscapedText("/children")

    /// An outline row's `"childCount"` (null when its rows were read without it) and `"children"`,
    /// the link to its children's list.
    private func writeChildren(_ row: some RowValues, id: UnsafeBufferPointer<UInt8>, into json: inout JSONWriter) {
        json.key(RowWriter.Keys.childCount)
        if let count = row.childCount { json.int64(Int64(count)) } else { json.null() }
        json.key(RowWriter.Keys.children)
        json.beginString()
        json.appendToString(detailBase)
        json.appendToString(verbatim: id)
        json.appendToString(Self.childrenPath)
        json.endString()
    }

    /// `{"id", "cells", "compact", "detail"}` (and an outline's `childCount`, `children`).
    func tableRow(_ row: some RowValues, table: TableCells, into json: inout JSONWriter) throws(StoreError) {
        try row.withID { id throws(StoreError) in
            json.beginObject()
            json.key(RowWriter.Keys.id)
            json.string(verbatim: id)
            try cellsAndCompact(row, table: table, into: &json)
            json.key(RowWriter.Keys.detail)
            json.string(detailBase, verbatim: id)
            if outline { writeChildren(row, id: id, into: &json) }
            json.endObject()
        }
    }

    /// `"cells": {…}, "compact": {title, subtitle}` inside an open object: a table row's, or a
    /// change-feed entry's of a list with a table. A cell with nothing to show is `—`.
    func cellsAndCompact(_ row: some RowValues, table: TableCells, into json: inout JSONWriter) throws(StoreError) {
        let plan = table.plan
        let keys = table.keys
        var item = WholeItem()
        /// The `forEach` field, when it is stored, and where in the body each of its cells' text
        /// is: a compact line showing that field copies them.
        var forEachCells: (field: Int, ranges: [Range<Int>])?
        var key = 0
        json.key(RowWriter.Keys.cells)
        json.beginObject()
        // By index: iterating the cells copied each (its column's text and part retained).
        for index in plan.cells.indices where key < keys.count {
            switch plan.cells[index] {
            case .value(_, let part):
                json.key(keys[key])
                try write(part, of: row, item: &item, orElse: Unavailable.text, into: &json)
            case .percent(_, let slot, let percent):
                json.key(keys[key])
                if let slot, case .money(let money) = try row.value(slot: slot), let result = money.increased(byPercent: percent - 100) {
                    json.string(context.currency(result))
                } else {
                    json.string(Unavailable.text)
                }
            case .days(_, let from, let to):
                json.key(keys[key])
                if let from, let to, let start = TableRowPlan.day(try row.value(slot: from)), let end = TableRowPlan.day(try row.value(slot: to)) {
                    json.string(context.days(end - start))
                } else {
                    json.string(Unavailable.text)
                }
            case .forEach(let field, let slot, let type):
                var numbers: [Double] = []
                var stored = false
                if let slot, case .numbers(let values) = try row.value(slot: slot) {
                    numbers = values
                    stored = true
                }
                let formatter = FieldFormatter(context: context)
                var ranges: [Range<Int>] = []
                ranges.reserveCapacity(table.names.count)
                for name in table.names.indices where key < keys.count {
                    json.key(keys[key])
                    json.beginString()
                    let start = json.count
                    if numbers.indices.contains(name) {
                        // Formatted straight into the body (a cell per number of every row,
                        // no `String` each); Foundation's rare cases as a `String`.
                        let value = numbers[name]
                        if json.appendToString(room: 64, { formatter.writeNumber(value, type: type, into: $0) }) == nil {
                            json.appendToString(formatter.number(value, type: type))
                        }
                    } else {
                        json.appendToString(Unavailable.text)
                    }
                    ranges.append(start..<json.count)
                    json.endString()
                    key += 1
                }
                // A null field shows nothing in the compact line (its cells still show "—").
                if stored { forEachCells = (field, ranges) }
                continue
            }
            key += 1
        }
        json.endObject()
        json.key(RowWriter.Keys.compact)
        json.beginObject()
        json.key(RowWriter.Keys.title)
        try compact(
            plan.compactTitle, field: plan.compactTitleField, forEach: forEachCells, table: table, of: row, item: &item, isTitle: true, into: &json)
        json.key(RowWriter.Keys.subtitle)
        try compact(
            plan.compactSubtitle, field: plan.compactSubtitleField, forEach: forEachCells, table: table, of: row, item: &item, into: &json)
        json.endObject()
    }

    /// A compact line: the `forEach` field's names and cells ("Left 0.50, Right 0.25") when it
    /// shows that field as stored, rather than formatting every number again; else its part.
    private func compact(
        _ part: RowPlan.Part, field: Int?, forEach: (field: Int, ranges: [Range<Int>])?, table: TableCells, of row: some RowValues,
        item: inout WholeItem, isTitle: Bool = false, into json: inout JSONWriter
    ) throws(StoreError) {
        let prefixes = table.compactPrefixes
        guard let forEach, field == forEach.field, prefixes.count == forEach.ranges.count else {
            if isTitle { return try title(part, of: row, item: &item, into: &json) }
            try write(part, of: row, item: &item, into: &json)
            return
        }
        guard !prefixes.isEmpty else { return json.stringOrNull(isTitle ? untitled : nil) }
        // Into the string being written, piece by piece, each cell copied from where it was
        // written: a line made as a `String` first grew it by an append per piece, per row.
        json.beginString()
        for index in prefixes.indices {
            json.appendToString(prefixes[index])
            json.appendToString(copyOf: forEach.ranges[index])
        }
        json.endString()
    }

    /// A title: what its part shows, or the placeholder when that is blank or nothing, as
    /// `ItemRenderer.title(of:)` decides for a section header or a reference.
    private func title(_ part: RowPlan.Part, of row: some RowValues, item: inout WholeItem, into json: inout JSONWriter) throws(StoreError) {
        let mark = json.mark()
        guard try write(part, of: row, item: &item, judgingBlank: true, into: &json) else { return }
        json.rewind(to: mark)
        json.string(untitled)
    }

    /// One part; nothing to show is `fallback` (`—` for a cell), or `null` without one.
    /// With `judgingBlank` (a title), whether the part itself showed nothing a person can read
    /// (null, empty or whitespace, `ItemRenderer.isBlank`), before any fallback: a title replaces
    /// what was written then. Without it, false: the other parts of every row skip the check.
    @discardableResult
    private func write(
        _ part: RowPlan.Part, of row: some RowValues, item: inout WholeItem, orElse fallback: String? = nil, judgingBlank: Bool = false,
        into json: inout JSONWriter
    ) throws(StoreError) -> Bool {
        let text: String?
        switch part {
        case .absent: text = nil
        case .constant(let constant): text = constant
        case .text(let slot):
            let wrote = row.withText(slot: slot) { bytes -> Bool? in
                guard let bytes else { return nil }
                json.beginString()
                Self.append(bytes, into: &json)
                json.endString()
                return judgingBlank && ItemRenderer.isBlank(utf8: bytes)
            }
            if let blank = wrote { return blank }
            text = nil
        case .formatted(let slot, let type):
            if case .money = type, let money = row.money(slot: slot) {
                guard case .amount(let minorUnits, let currency) = money else {
                    text = nil
                    break
                }
                var blank = true
                json.beginString()
                context.withCurrency(minorUnits: minorUnits, currencyUTF8: currency) { bytes in
                    blank = judgingBlank && ItemRenderer.isBlank(utf8: bytes)
                    json.appendToString(utf8: bytes)
                }
                json.endString()
                return blank
            }
            let value = try row.value(slot: slot)
            let formatter = FieldFormatter(context: context)
            // An integer straight into the body (a table row may show one twice: in its cell and
            // its compact line), anything else as a `String`. What is written in place is a
            // number or a date: never blank.
            let mark = json.mark()
            json.beginString()
            if json.appendToString(room: 64, { formatter.write(value, as: type, into: $0) }) != nil {
                json.endString()
                return false
            }
            json.rewind(to: mark)
            text = formatter.format(value, as: type)
        case .template(let pieces):
            let start = json.mark()
            json.beginString()
            let filled = try fill(pieces, of: row, into: &json)
            guard filled.shown else {
                json.rewind(to: start)
                text = nil
                break
            }
            json.endString()
            return judgingBlank && filled.blank
        case .item(let spec): text = renderer.text(spec, of: try item.of(row), references: references, in: context)
        case .itemImage: text = renderer.image(of: try item.of(row))
        }
        if let text = text ?? fallback {
            json.string(text)
        } else {
            json.null()
        }
        return judgingBlank && (text.map(ItemRenderer.isBlank) ?? true)
    }

    /// A template's pieces into the open string by `Template.fill`'s rule, each value written
    /// where it goes and taken back (with the separator written before it) when it showed
    /// nothing. `shown`: false when no placeholder showed anything; `blank`: what it kept is
    /// nothing a person can read (`ItemRenderer.isBlank`), which a title replaces.
    private func fill(
        _ pieces: [RowPlan.Piece], of row: some RowValues, into json: inout JSONWriter
    ) throws(StoreError) -> (shown: Bool, blank: Bool) {
        // The literal text since the last placeholder: a separator, or the leading text.
        var before = ""
        var placeholders = 0
        var shown = false
        var lastShown = false
        var blank = true
        for piece in pieces {
            if case .literal(let literal) = piece {
                if before.isEmpty { before = literal } else { before += literal }
                continue
            }
            let mark = json.mark()
            let keepsBefore = placeholders == 0 || shown
            if keepsBefore { json.appendToString(before) }
            placeholders += 1
            let valueStart = json.count
            var valueBlank = true
            switch piece {
            case .literal: break
            case .text(let slot):
                row.withText(slot: slot) { bytes in
                    guard let bytes else { return }
                    Self.append(bytes, into: &json)
                    valueBlank = ItemRenderer.isBlank(utf8: bytes)
                }
            case .formatted(let slot, let type):
                let value = try row.value(slot: slot)
                let formatter = FieldFormatter(context: context)
                if json.appendToString(room: 64, { formatter.write(value, as: type, into: $0) }) != nil {
                    valueBlank = false
                } else if let formatted = formatter.format(value, as: type) {
                    json.appendToString(formatted)
                    valueBlank = ItemRenderer.isBlank(formatted)
                }
            }
            lastShown = json.count > valueStart
            if lastShown {
                shown = true
                if blank { blank = valueBlank && (!keepsBefore || ItemRenderer.isBlank(before)) }
            } else {
                json.rewind(to: mark)
            }
            before = ""
        }
        if placeholders == 0 || lastShown {
            json.appendToString(before)
            if blank { blank = ItemRenderer.isBlank(before) }
        }
        return (placeholders == 0 || shown, blank)
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

/// A row's whole item, decoded when a part first shows more than a stored value, then kept for
/// its other parts: a table whose compact line is made of a `forEach` field's cells needs none
/// (such a table decoded every row's item for nothing).
struct WholeItem {
    private var decoded: Item?

    mutating func of(_ row: some RowValues) throws(StoreError) -> Item {
        if let decoded { return decoded }
        let item = try row.item()
        decoded = item
        return item
    }
}
