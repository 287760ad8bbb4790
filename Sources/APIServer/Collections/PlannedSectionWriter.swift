import Domain
import Foundation
import HTTPServer
import Storage

/// Writes a sectioned list's rows (`PlannedRowWriter`), opening a section where the section
/// field's value changes. A section by a reference is headed by the referenced item's title:
/// one of the page's references, or read in the page's snapshot by the store's row.
struct PlannedSectionWriter {
    let rows: PlannedRowWriter
    /// The slot of the field the collection is sectioned by.
    let slot: Int
    /// The collection a section reference points to.
    let target: String?
    /// The link of a section's header.
    let link: (ItemRenderer.SectionHeading) -> String?
    /// Where each section opened and its id, when the page counts its sections: each count is
    /// spliced in once the page has read them (`CatalogPageRenderer`).
    var openings: [(at: Int, id: String, rows: Int64)]?
    private var open: FieldValue?
    /// The open section's key as stored, when it is stored as text: a row whose stored text is
    /// the same bytes is in the same section without decoding its value (a reference's id parsed).
    private var openText: [UInt8]?

    init(rows: PlannedRowWriter, slot: Int, target: String?, link: @escaping (ItemRenderer.SectionHeading) -> String?) {
        self.rows = rows
        self.slot = slot
        self.target = target
        self.link = link
    }

    mutating func row(_ row: some RowValues, into json: inout JSONWriter) throws(StoreError) {
        // Copied before the value is read (reading a column again may move its text), and only
        // when the row does not continue the open section.
        var storedKey: [UInt8]?
        let continues = row.withText(slot: slot) { text in
            if open != nil, let text, let openText, Self.same(text, openText) { return true }
            storedKey = text.map(Array.init)
            return false
        }
        if continues {
            countRow()
            return try rows.row(row, into: &json)
        }
        let key = try row.value(slot: slot)
        if open != key {
            var references = rows.references
            if case .reference(let id) = key, let target, let referenced = try row.item(target, id: id) { references.insert(referenced) }
            guard let section = rows.renderer.section(forKey: key, references: references, in: rows.context) else { return }
            finish(into: &json)
            open = key
            let countAt = RowWriter.openSection(section, detail: link(section), into: &json)
            openings?.append((countAt, section.id, 0))
        }
        openText = storedKey
        countRow()
        try rows.row(row, into: &json)
    }

    /// One more row in the open section, when the page counts its sections.
    private mutating func countRow() {
        guard let last = openings?.indices.last else { return }
        openings?[last].rows += 1
    }

    private static func same(_ stored: UnsafeBufferPointer<UInt8>, _ kept: [UInt8]) -> Bool {
        guard stored.count == kept.count else { return false }
        guard let base = stored.baseAddress, !stored.isEmpty else { return true }
        return kept.withUnsafeBufferPointer { kept in
            guard let keptBase = kept.baseAddress else { return false }
            return memcmp(base, keptBase, stored.count) == 0
        }
    }

    /// Closes the open section, if any.
    mutating func finish(into json: inout JSONWriter) {
        guard open != nil else { return }
        json.endArray()
        json.endObject()
        open = nil
        openText = nil
    }

    /// Forgets the open section (what it wrote was rewound).
    mutating func reset() {
        if openings != nil { openings = [] }
        open = nil
        openText = nil
    }
}
