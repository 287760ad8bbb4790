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

    /// `ancestors`: an outline node's, root first (nil for an item of no outline).
    func body(_ item: Item, references: ReferencedItems, ancestors: [Item]? = nil) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        write(item, references: references, ancestors: ancestors, into: &json)
        return json.bytes
    }

    func write(_ item: Item, references: ReferencedItems, ancestors: [Item]? = nil, into json: inout JSONWriter) {
        let definition = collection.definition
        let renderer = collection.renderer
        let plan = collection.detailPlan
        let id = item.id.rawValue
        json.beginObject()
        json.field(DetailPlan.id, id)
        // By index, and each part read where it is needed: a field passed whole is copied whole
        // (a dozen references), once per field of every detail.
        for index in definition.fields.indices {
            json.key(plan.fieldKeys[index])
            guard let slot = definition.fields[index].slot else {
                json.stringOrNull(renderer.fieldText(index, of: item, references: references, in: context))
                continue
            }
            let value = item[slot: slot]
            writeValue(value, field: index, item: item, references: references, into: &json)
            if let embed = plan.embeds[index] {
                json.key(embed.key)
                writeEmbed(value.reference, embed, references: references, into: &json)
            }
        }
        if let ancestors { writeAncestors(ancestors, into: &json) }
        json.key(DetailPlan.links)
        writeLinks(item, id: id, plan: plan, into: &json)
        json.endObject()
    }

    private func writeValue(_ value: FieldValue, field index: Int, item: Item, references: ReferencedItems, into json: inout JSONWriter) {
        switch value {
        case .null: json.null()
        case .text(let text): json.string(text)
        case .integer(let integer):
            switch collection.definition.fields[index].type {
            case .decimal(let scale): json.raw(Array(DecimalText.plain(integer, scale: scale).utf8))
            case .dateTime: json.string(DateText.rfc3339(milliseconds: integer))
            default: json.int64(integer)
            }
        case .boolean(let flag): json.bool(flag)
        case .money(let money):
            json.beginObject()
            json.key("minorUnits")
            json.int64(money.minorUnits)
            json.field("currency", money.currency)
            json.field("formatted", context.currency(money))
            json.endObject()
        case .reference(let id): json.string(id.rawValue)
        case .numbers(let numbers):
            writeNumbers(numbers, field: collection.definition.fields[index], item: item, references: references, into: &json)
        case .names(let names):
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
    private func writeEmbed(_ id: EntityID?, _ embed: DetailPlan.Embed, references: ReferencedItems, into json: inout JSONWriter) {
        guard let id else { return json.null() }
        let raw = id.rawValue
        json.beginObject()
        json.field(DetailPlan.id, raw)
        let title = references[id].flatMap { referenced in served.collection(embed.target.name)?.renderer.title(of: referenced, in: context) }
        json.field(embed.titleKey, title)
        json.key(DetailPlan.detail)
        json.string(embed.detailPrefix, raw)
        json.endObject()
    }

    /// `"ancestors": [{id, title, detail}]`, root first: the path a client shows above the node.
    private func writeAncestors(_ ancestors: [Item], into json: inout JSONWriter) {
        json.key("ancestors")
        json.beginArray()
        for ancestor in ancestors {
            json.beginObject()
            json.field(DetailPlan.id, ancestor.id.rawValue)
            json.field("title", collection.renderer.title(of: ancestor, in: context))
            json.key(DetailPlan.detail)
            json.string("/v1/\(collection.name)/", ancestor.id.rawValue)
            json.endObject()
        }
        json.endArray()
    }

    private func writeLinks(_ item: Item, id: String, plan: DetailPlan, into json: inout JSONWriter) {
        let list = CatalogLinks.list(collection, parent: collection.parentID(of: item))
        json.beginObject()
        json.key(DetailPlan.selfLink)
        json.beginString()
        json.appendToString(list)
        json.appendToString("/")
        json.appendToString(id)
        json.endString()
        json.field(DetailPlan.collection, list)
        for link in plan.links {
            switch link {
            case .reference(let key, let slot, let prefix):
                json.key(key)
                if let target = item[slot: slot].reference { json.string(prefix, target.rawValue) } else { json.null() }
            case .around(let key, let prefix, let suffix):
                json.key(key)
                json.beginString()
                json.appendToString(prefix)
                json.appendToString(id)
                json.appendToString(suffix)
                json.endString()
            }
        }
        json.endObject()
    }
}
