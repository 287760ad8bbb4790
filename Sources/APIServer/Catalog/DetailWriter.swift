import Domain
import HTTPServer
import Storage

/// An item's detail as JSON, from its collection's definition: the id, every field in declared
/// order (stored values in their wire form, computed ones as text), embedded references, and
/// the links a client follows from it.
///
/// Wire forms: money `{minorUnits, currency, formatted}`, decimals as JSON numbers, dates as
/// `YYYY-MM-DD`, date-times as RFC 3339 UTC, numbers aligned with names as
/// `[{<labelKey>: id, name, <valueKey>: number, formatted}]`, names as `[{id, name}]`.
struct DetailWriter {
    let served: ServedCatalog
    let collection: ServedCollection
    let context: RenderContext

    func body(_ item: Item, references: ReferencedItems) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        write(item, references: references, into: &json)
        return json.bytes
    }

    func write(_ item: Item, references: ReferencedItems, into json: inout JSONWriter) {
        let definition = collection.definition
        let renderer = collection.renderer
        json.beginObject()
        json.field("id", item.id.rawValue)
        for (index, field) in definition.fields.enumerated() {
            json.key(field.name)
            guard let slot = field.slot else {
                json.stringOrNull(renderer.fieldText(index, of: item, references: references, in: context))
                continue
            }
            let value = item[slot: slot]
            writeValue(value, field: field, item: item, references: references, into: &json)
            if let key = field.reference?.embed, let target = renderer.target(ofField: index) {
                json.key(key)
                writeEmbed(value.reference, target: target, references: references, into: &json)
            }
        }
        json.key("links")
        writeLinks(item, into: &json)
        json.endObject()
    }

    private func writeValue(_ value: FieldValue, field: FieldDefinition, item: Item, references: ReferencedItems, into json: inout JSONWriter) {
        switch (value, field.type) {
        case (.null, _): json.null()
        case (.text(let text), _): json.string(text)
        case (.integer(let integer), .decimal(let scale)): json.raw(Array(DecimalText.plain(integer, scale: scale).utf8))
        case (.integer(let integer), .dateTime): json.string(DateText.rfc3339(milliseconds: integer))
        case (.integer(let integer), _): json.int64(integer)
        case (.boolean(let flag), _): json.bool(flag)
        case (.money(let money), _):
            json.beginObject()
            json.key("minorUnits")
            json.int64(money.minorUnits)
            json.field("currency", money.currency)
            json.field("formatted", context.currency(money))
            json.endObject()
        case (.reference(let id), _): json.string(id.rawValue)
        case (.numbers(let numbers), _):
            writeNumbers(numbers, field: field, item: item, references: references, into: &json)
        case (.names(let names), _):
            json.beginArray()
            for entry in names {
                json.beginObject()
                json.field("id", entry.id.rawValue)
                json.field("name", entry.name)
                json.endObject()
            }
            json.endArray()
        }
    }

    /// Numbers aligned with names carry their name's id and name; a number without a name, or
    /// a name without a number, has nulls on the missing side.
    private func writeNumbers(_ numbers: [Double], field: FieldDefinition, item: Item, references: ReferencedItems, into json: inout JSONWriter) {
        let formatter = FieldFormatter(context: context)
        json.beginArray()
        guard let labels = field.labels else {
            for number in numbers { json.double(number) }
            json.endArray()
            return
        }
        let names = collection.renderer.labelNames(of: field, item: item, references: references) ?? []
        for index in 0..<max(names.count, numbers.count) {
            let entry = names.indices.contains(index) ? names[index] : nil
            let number = numbers.indices.contains(index) ? numbers[index] : nil
            json.beginObject()
            json.field(labels.labelKey, entry?.id.rawValue)
            json.field("name", entry?.name)
            json.key(labels.valueKey)
            if let number { json.double(number) } else { json.null() }
            json.field("formatted", number.map { formatter.number($0, type: field.type) })
            json.endObject()
        }
        json.endArray()
    }

    /// `{id, <title field>: title, detail}` of a referenced item, or null without a reference.
    private func writeEmbed(_ id: EntityID?, target: CollectionDefinition, references: ReferencedItems, into json: inout JSONWriter) {
        guard let id else { return json.null() }
        json.beginObject()
        json.field("id", id.rawValue)
        var titleKey = "title"
        if case .field(let index) = target.row.title.source, target.fields.indices.contains(index), target.fields[index].isStored {
            titleKey = target.fields[index].name
        }
        let title = references[id].flatMap { referenced in served.collection(target.name)?.renderer.title(of: referenced, in: context) }
        json.field(titleKey, title)
        json.field("detail", CatalogLinks.detail(target, id))
        json.endObject()
    }

    private func writeLinks(_ item: Item, into json: inout JSONWriter) {
        let definition = collection.definition
        let parent = collection.parentID(of: item)
        var written = Set(["self", "collection"])
        json.beginObject()
        json.field("self", CatalogLinks.detail(collection, item.id, parent: parent))
        json.field("collection", CatalogLinks.list(collection, parent: parent))
        for (index, field) in definition.fields.enumerated() {
            guard let name = field.reference?.link, let target = collection.renderer.target(ofField: index), let slot = field.slot,
                written.insert(name).inserted
            else { continue }
            json.field(name, item[slot: slot].reference.map { CatalogLinks.detail(target, $0) })
        }
        for child in served.catalog.children(of: definition) {
            guard let served = served.collection(child.name), written.insert(child.name).inserted else { continue }
            let list = CatalogLinks.list(served, parent: item.id)
            json.field(child.name, list)
            if child.table != nil, written.insert(child.name + "Table").inserted { json.field(child.name + "Table", list + "?view=table") }
        }
        for source in served.catalog.topLevel where source.name != definition.name {
            let filter = source.filters.first { filter in
                filter.operation == .equals && source.fields[filter.field].type.referencedCollection == definition.name
            }
            guard let filter, written.insert(source.name).inserted else { continue }
            json.field(source.name, "/v1/\(source.name)?\(ListLinks.percentEncode(filter.name))=\(item.id.rawValue)")
        }
        json.endObject()
    }
}
