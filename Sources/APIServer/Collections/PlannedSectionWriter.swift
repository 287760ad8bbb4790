import Domain
import HTTPServer
import Storage

/// Writes a sectioned list's rows from the store's rows (`PlannedRowWriter`), opening a section
/// where the section field's value changes: the same bytes as `CatalogPageRenderer`'s item path.
/// A section by a reference is headed by the referenced item's title, read in the page's snapshot.
struct PlannedSectionWriter {
    let rows: PlannedRowWriter
    /// The slot of the field the collection is sectioned by.
    let slot: Int
    /// The collection a section reference points to.
    let target: String?
    /// The link of a section's header.
    let link: (ItemRenderer.SectionHeading) -> String?
    private var open: FieldValue?

    init(rows: PlannedRowWriter, slot: Int, target: String?, link: @escaping (ItemRenderer.SectionHeading) -> String?) {
        self.rows = rows
        self.slot = slot
        self.target = target
        self.link = link
    }

    mutating func row(_ row: PageRow, into json: inout JSONWriter) throws(StoreError) {
        let key = try row.value(slot: slot)
        if open != key {
            var references = rows.references
            if case .reference(let id) = key, let target, let referenced = try row.item(target, id: id) { references.insert(referenced) }
            guard let section = rows.renderer.section(forKey: key, references: references, in: rows.context) else { return }
            finish(into: &json)
            open = key
            RowWriter.openSection(section, detail: link(section), into: &json)
        }
        try rows.row(row, into: &json)
    }

    /// Closes the open section, if any.
    mutating func finish(into json: inout JSONWriter) {
        guard open != nil else { return }
        json.endArray()
        json.endObject()
        open = nil
    }

    /// Forgets the open section (what it wrote was rewound).
    mutating func reset() {
        open = nil
    }
}
