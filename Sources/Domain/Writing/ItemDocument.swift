/// A write's JSON document as an item of a collection: every rule of the collection's
/// definition checked, every failure reported by JSON pointer (422), nothing half-applied.
///
/// Pure: references to other items are returned for the caller to look up (the store checks
/// them again in the writing transaction), so the rules can be tested as data. Problems come in
/// a fixed order: unknown and read-only keys in document order, then the id, then each field in
/// declared order.
///
/// Absent and `null` are the same (as in a merge patch): an absent field takes its default, or
/// is null when optional; a required field without a default must be given.
public enum ItemDocument {
    public enum Mode: Sendable {
        /// A create: the new item gets `id`; the document must not name one.
        case create(EntityID)
        /// A change: the document is the whole item after the patch; its id must be the item's.
        case replace(Item)

        public var id: EntityID {
            switch self {
            case .create(let id): id
            case .replace(let item): item.id
            }
        }
    }

    /// An id the document names that must exist in `collection`.
    public struct Reference: Sendable, Hashable {
        public var pointer: String
        public var collection: String
        public var id: EntityID
    }

    public struct Outcome: Sendable {
        /// The item, when ``problems`` is empty.
        public var item: Item?
        public var problems: [FieldProblem]
        public var references: [Reference]
    }

    /// `server`: the server itself writes (an import), so a collection clients cannot write
    /// (`writable: false`, a track's samples) takes items too, under the same rules.
    /// `parent`: a child item written under its parent's path (`POST /v1/tracks/{id}/samples`):
    /// the path names the parent, so the document leaves the parent field out and the item
    /// gets this id there.
    public static func decode(
        _ document: JSONValue, in collection: CollectionDefinition, catalog: Catalog, mode: Mode, server: Bool = false, parent: EntityID? = nil
    ) -> Outcome {
        var reader = FieldReader()
        guard collection.writable || server else {
            reader.fail("", "\(collection.title.english) cannot be written: the server keeps them.")
            return Outcome(item: nil, problems: reader.problems, references: [])
        }
        var references: [Reference] = []
        let parentField = parent == nil ? nil : collection.parent?.field
        let writable = collection.fields.enumerated().filter { $1.isStored && !$1.readOnly && $0 != parentField }.map(\.element)
        let pathKeys = parentField.map { [collection.fields[$0].name] } ?? []
        guard
            let fields = reader.object(
                document, at: "", fields: ["id"] + writable.map(\.name), readOnly: readOnlyKeys(of: collection), pathKeys: Set(pathKeys))
        else { return Outcome(item: nil, problems: reader.problems, references: []) }
        checkID(fields["id"], mode, &reader)
        var values = [FieldValue](repeating: .null, count: collection.slots.count)
        for (index, field) in collection.fields.enumerated() {
            guard let slot = field.slot, values.indices.contains(slot) else { continue }
            if index == parentField, let parent {
                values[slot] = .reference(parent)
                continue
            }
            if field.readOnly {
                if case .replace(let current) = mode {
                    values[slot] = current[slot: slot]
                } else {
                    values[slot] = field.defaultValue ?? .null
                }
                continue
            }
            let raw = fields[field.name]
            if raw == nil || raw == .null {
                if let value = field.defaultValue {
                    values[slot] = value
                    continue
                }
                if !field.rules.required { continue }
            }
            var context = FieldContext(field: field, pointer: JSONPointer.appending("", field.name), catalog: catalog, mode: mode, slot: slot)
            values[slot] = context.decode(raw, &reader, &references) ?? .null
        }
        let item = reader.problems.isEmpty ? Item(id: mode.id, values: values) : nil
        return Outcome(item: item, problems: reader.problems, references: item == nil ? [] : references)
    }

    /// Keys a detail shows that a write must leave out: computed fields, read-only stored fields,
    /// embedded references and `links`.
    static func readOnlyKeys(of collection: CollectionDefinition) -> Set<String> {
        var keys: Set<String> = ["links"]
        for field in collection.fields {
            if field.readOnly { keys.insert(field.name) }
            if let embed = field.reference?.embed { keys.insert(embed) }
        }
        return keys
    }

    /// The id rule: absent on create, unchanged on replace.
    private static func checkID(_ value: JSONValue?, _ mode: Mode, _ reader: inout FieldReader) {
        switch mode {
        case .create:
            if let value, value != .null { reader.fail("/id", "The id is assigned by the server; leave it out.") }
        case .replace(let item):
            if value != .string(item.id.rawValue) { reader.fail("/id", "The id cannot change; it stays \(item.id.rawValue).") }
        }
    }

    /// The writable fields of an item as a document: what a merge patch applies to. Decoding it
    /// unpatched gives the item back unchanged. Every writable field is present, `null` when
    /// unset, so a patch that removes an unset field is told from one that names no field.
    /// `underParent`: without the parent field, as `decode(…, parent:)` reads it.
    public static func writable(_ item: Item, in collection: CollectionDefinition, underParent: Bool = false) -> JSONValue {
        var members = [JSONMember("id", .string(item.id.rawValue))]
        let parentField = underParent ? collection.parent?.field : nil
        for (index, field) in collection.fields.enumerated() where field.isStored && !field.readOnly && index != parentField {
            guard let slot = field.slot else { continue }
            members.append(JSONMember(field.name, json(item[slot: slot], type: field.type) ?? .null))
        }
        return .object(members)
    }

    /// A value's JSON as writes send it; nil for null.
    static func json(_ value: FieldValue, type: FieldType) -> JSONValue? {
        switch (value, type) {
        case (.null, _): nil
        case (.text(let text), _): .string(text)
        case (.integer(let integer), .decimal(let scale)): .number(JSONNumber(validatedText: DecimalText.plain(integer, scale: scale)))
        case (.integer(let integer), .dateTime): .string(DateText.rfc3339(milliseconds: integer))
        case (.integer(let integer), _): .integer(integer)
        case (.boolean(let boolean), _): .bool(boolean)
        case (.money(let money), _):
            .object([JSONMember("minorUnits", .integer(money.minorUnits)), JSONMember("currency", .string(money.currency))])
        case (.reference(let id), _): .string(id.rawValue)
        case (.numbers(let numbers), _): .array(numbers.map { .number(JSONNumber(validatedText: DecimalText.json($0))) })
        case (.names(let names), _):
            .array(names.map { .object([JSONMember("id", .string($0.id.rawValue)), JSONMember("name", .string($0.name))]) })
        }
    }
}

/// Decimal numbers as JSON text, from scaled integers and doubles.
public enum DecimalText {
    /// `12.34` (an optional `-`, at most 15 whole digits, at most `digits` fraction digits) as an
    /// integer scaled by 10^`digits`: how a query parameter or a CSV cell names an amount of
    /// money (major units) or a decimal. nil for anything else, including `1.`, `.5` and exponents.
    public static func scaled(_ text: String, digits: Int) -> Int64? {
        let negative = text.hasPrefix("-")
        let parts = (negative ? text.dropFirst() : Substring(text)).split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit = { (byte: UInt8) in byte >= 48 && byte <= 57 }
        guard let whole = parts.first, !whole.isEmpty, whole.utf8.count <= 15, whole.utf8.allSatisfy(isDigit) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard digits >= 0, fraction.utf8.count <= digits, fraction.utf8.allSatisfy(isDigit), parts.count == 1 || !fraction.isEmpty else {
            return nil
        }
        fraction += String(repeating: "0", count: digits - fraction.utf8.count)
        guard let value = Int64(whole + fraction) else { return nil }
        return negative ? -value : value
    }

    /// `1250` at scale 2 is `12.50`; scale 0 gives the integer.
    public static func plain(_ scaled: Int64, scale: Int) -> String {
        guard scale > 0 else { return String(scaled) }
        let digits = String(scaled.magnitude)
        let padded = digits.count > scale ? digits : String(repeating: "0", count: scale - digits.count + 1) + digits
        let split = padded.index(padded.endIndex, offsetBy: -scale)
        return (scaled < 0 ? "-" : "") + padded[..<split] + "." + padded[split...]
    }

    /// A finite double as a JSON number: Swift's shortest round-tripping spelling (`0.25`,
    /// `1e-05`, `5.0`), which JSON's grammar accepts.
    public static func json(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }
}
