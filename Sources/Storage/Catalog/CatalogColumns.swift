import Domain
import Foundation
import GRDB

/// An item as the columns of its `CatalogTable` row, and back.
enum CatalogColumns {
    /// The values of `table.columns` for `item`; `sectionKey` is the folded title of the item its
    /// section reference points to (the writer looks it up).
    static func values(of item: Item, in table: CatalogTable, renderer: ItemRenderer, sectionKey: String) -> [(any DatabaseValueConvertible)?] {
        let collection = table.collection
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(table.columns.count)
        for (slot, field) in collection.storedFields.enumerated() {
            let value = item[slot: slot]
            switch value {
            case .null: values.append(contentsOf: Array(repeating: nil, count: table.valueColumns[slot].count))
            case .text(let text): values.append(text)
            case .integer(let integer): values.append(integer)
            case .boolean(let flag): values.append(flag ? 1 : 0)
            case .money(let money):
                values.append(money.minorUnits)
                values.append(money.currency)
            case .reference(let id): values.append(id.rawValue)
            case .numbers(let numbers): values.append(numbersBlob(numbers))
            case .names(let names): values.append(namesJSON(names))
            }
            _ = field
        }
        for index in table.keyColumns.keys.sorted() {
            let field = collection.fields[index]
            values.append(contentsOf: sortKey(field.slot.map { item[slot: $0] } ?? .null, type: field.type))
        }
        if let sections = collection.sections {
            let field = collection.fields[sections.field]
            let value = field.slot.map { item[slot: $0] } ?? .null
            switch value {
            case .reference(let id):
                values.append(sectionKey)
                values.append(id.rawValue)
            case .text(let text):
                values.append(Int64(field.type.enumCases.firstIndex { $0.value == text } ?? -1))
                values.append(text)
            default:
                values.append(field.type.referencedCollection != nil ? "" as String : Int64(-1))
                values.append("")
            }
        }
        let texts = renderer.searchTexts(of: item, references: .none)
        values.append(collection.isSearchable ? searchFolded((texts.first ?? nil) ?? "") : nil)
        values.append(texts.count > 1 ? texts[1].map(searchFolded) : nil)
        return values
    }

    /// The never-NULL sort key of a value: folded text, an enum's index, a number; money as
    /// currency then minor units. Nulls sort first.
    static func sortKey(_ value: FieldValue, type: FieldType) -> [any DatabaseValueConvertible] {
        switch (type, value) {
        case (.money, .money(let money)): [money.currency, money.minorUnits]
        case (.money, _): ["", Int64.min]
        case (.enumeration(let cases), .text(let text)): [Int64(cases.firstIndex { $0.value == text } ?? -1)]
        case (.enumeration, _), (.boolean, .null): [Int64(-1)]
        case (.boolean, .boolean(let flag)): [Int64(flag ? 1 : 0)]
        case (.date, .text(let text)): [text]
        case (_, .text(let text)): [searchFolded(text)]
        case (_, .integer(let integer)): [integer]
        case (.integer, _), (.decimal, _), (.dateTime, _): [Int64.min]
        default: [""]
        }
    }

    /// The item in the current row of a statement selecting `table.selectList`; `id` when the
    /// caller has parsed it already.
    static func decode(_ row: StatementRow, in table: CatalogTable, id parsedID: EntityID? = nil) throws -> Versioned<Item> {
        let id = try parsedID ?? self.id(row, in: table)
        let version = row.integer(1) ?? 0
        var values: [FieldValue] = []
        values.reserveCapacity(table.storedTypes.count)
        for slot in table.storedTypes.indices {
            values.append(try value(row, slot: slot, in: table))
        }
        return Versioned(item: Item(id: id, values: values), version: version)
    }

    /// The id in the current row (column 0); a stored id that does not parse is an invariant broken.
    static func id(_ row: StatementRow, in table: CatalogTable) throws -> EntityID {
        let kind = table.collection.kind
        guard let id = row.withText(0, { $0.flatMap { EntityID(parsingUTF8: $0, kind: kind) } }) else {
            throw StoreError.invariant("stored id \"\(row.text(0) ?? "")\" is not a valid \(kind.rawValue) id")
        }
        return id
    }

    /// One stored slot's value in the current row, whose (first) value column is `column`
    /// (nil: where `table.selectList` has it).
    static func value(_ row: StatementRow, slot: Int, column: Int? = nil, in table: CatalogTable) throws -> FieldValue {
        let column = column ?? table.slotColumns[slot]
        let type = table.storedTypes[slot]
        if case .money = type {
            guard let minor = row.integer(column), let currency = row.text(column + 1) else { return .null }
            return .money(Money(minorUnits: minor, currency: currency))
        }
        return try fieldValue(row, column, type: type)
    }

    private static func fieldValue(_ row: StatementRow, _ column: Int, type: FieldType) throws -> FieldValue {
        if row.isNull(column) { return .null }
        switch type {
        case .integer, .decimal, .dateTime:
            return row.integer(column).map(FieldValue.integer) ?? .null
        case .boolean:
            return row.integer(column).map { .boolean($0 != 0) } ?? .null
        case .reference(let collection):
            guard let id = row.withText(column, { $0.flatMap { EntityID(parsingUTF8: $0, kind: nil) } }) else {
                throw StoreError.invariant("a stored reference to \(collection) is not an id")
            }
            return .reference(id)
        case .numbers:
            return .numbers(row.doubles(column))
        case .names:
            return .names(try names(row.text(column) ?? "[]"))
        default:
            return row.text(column).map(FieldValue.text) ?? .null
        }
    }

    static func numbersBlob(_ numbers: [Double]) -> Data {
        var data = Data(capacity: numbers.count * 8)
        for number in numbers {
            withUnsafeBytes(of: number.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    private struct StoredName: Encodable {
        var id: String
        var name: String
    }

    static func namesJSON(_ names: [NamedEntry]) -> String {
        let stored = names.map { StoredName(id: $0.id.rawValue, name: $0.name) }
        return (try? String(decoding: JSONEncoder().encode(stored), as: UTF8.self)) ?? "[]"
    }

    /// Names parsed, by their stored JSON: a child list reads its parent's names on every page,
    /// and they seldom change (parsing them cost more than writing several rows).
    private static let parsedNames = BoundedMemo<String, Result<[NamedEntry], StoreError>>(limit: 1_024)

    static func names(_ json: String) throws(StoreError) -> [NamedEntry] {
        try parsedNames.value(for: json) { Result { () throws(StoreError) in try parseNames(json) } }.get()
    }

    /// Read with Domain's parser, not Foundation's `JSONDecoder` (twice the cost).
    private static func parseNames(_ json: String) throws(StoreError) -> [NamedEntry] {
        guard case .array(let entries)? = try? JSONParser.parse(Array(json.utf8)) else {
            throw StoreError.invariant("stored names are not a JSON array: \(json.prefix(80))")
        }
        return try entries.map { entry throws(StoreError) in
            guard case .string(let text)? = entry["id"], let id = EntityID(parsing: text), case .string(let name)? = entry["name"] else {
                throw StoreError.invariant("a stored name is not an id and a name: \(json.prefix(80))")
            }
            return NamedEntry(id: id, name: name)
        }
    }
}
