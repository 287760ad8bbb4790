import DemoData
import Domain
import FuzzSupport

/// Write documents of every demo collection through `ItemDocument`, the definition-driven
/// validator behind POST and PATCH: the first byte picks the collection and whether the body
/// is a create or a merge patch of a stored item.
///
/// Invariants: an item comes back exactly when no problem does; every problem's pointer is
/// empty or starts with `/`; the item has the mode's id; every stored value keeps its field's
/// rules (type, required, lengths, bounds, choices, currencies); the item's writable document
/// decodes again to the same item.
private let catalog = DemoCatalog.catalog
private let collections = catalog.collections

private func id(_ kind: EntityKind, _ bits: UInt32) -> EntityID {
    EntityID(kind: kind, timestampMilliseconds: 1_700_000_000_000, randomBits: bits)
}

/// One valid stored item per collection, to patch.
private let stored: [String: Item] = {
    var items: [String: Item] = [:]
    func add(_ name: String, _ values: [String: FieldValue], kind: EntityKind, bits: UInt32) {
        guard let collection = catalog.collection(named: name) else { return }
        items[name] = Item(id: id(kind, bits), in: collection, values)
    }
    add(
        "products",
        [
            "name": .text("Keyboard"), "shortDescription": .text("Quiet"), "longDescription": .text(""),
            "price": .money(Money(minorUnits: 12_000, currency: "EUR")),
        ], kind: .product, bits: 1)
    add("departments", ["name": .text("Sales")], kind: .department, bits: 2)
    add(
        "people",
        [
            "givenName": .text("Ann"), "familyName": .text("Lee"), "emailAddress": .text("ann@example.com"),
            "phoneNumber": .text("+1 555"), "departmentID": .reference(id(.department, 2)),
        ], kind: .person, bits: 3)
    add("articles", ["headline": .text("News"), "markdown": .text("# News")], kind: .article, bits: 4)
    add("documents", ["title": .text("Plan"), "body": .text("Text")], kind: .document, bits: 5)
    add(
        "tracks",
        ["title": .text("Mix"), "channels": .names([NamedEntry(id: id(.channel, 7), name: "L"), NamedEntry(id: id(.channel, 8), name: "R")])],
        kind: .track, bits: 6)
    add(
        "samples", ["trackID": .reference(id(.track, 6)), "timestampMilliseconds": .integer(0), "levels": .numbers([0.5, 0.25])], kind: .sample,
        bits: 9)
    return items
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemDecoder(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let selector = Int(input.byte())
    let collection = collections[selector % collections.count]
    guard let body = try? JSONParser.parse(input.rest()), let current = stored[collection.name] else { return 0 }
    let mode: ItemDocument.Mode
    let document: JSONValue
    if (selector / collections.count) % 2 == 0 {
        mode = .create(id(collection.kind, 99))
        document = body
    } else {
        mode = .replace(current)
        document = MergePatch.apply(body, to: ItemDocument.writable(current, in: collection))
    }
    let outcome = ItemDocument.decode(document, in: collection, catalog: catalog, mode: mode)
    fuzzCheck(
        (outcome.item != nil) == outcome.problems.isEmpty,
        "item \(outcome.item == nil ? "missing" : "present") with \(outcome.problems.count) problems")
    for problem in outcome.problems {
        fuzzCheck(problem.pointer.isEmpty || problem.pointer.utf8.first == UInt8(ascii: "/"), "pointer \(problem.pointer.debugDescription)")
    }
    guard let item = outcome.item else { return 0 }
    fuzzCheck(item.id == mode.id, "item \(item.id) for mode id \(mode.id)")
    fuzzCheck(item.values.count == collection.slots.count, "\(item.values.count) values for \(collection.slots.count) slots")
    for (slot, field) in collection.storedFields.enumerated() { checkRules(item[slot: slot], field) }
    for reference in outcome.references {
        fuzzCheck(
            reference.pointer.utf8.first == UInt8(ascii: "/") && catalog.collection(named: reference.collection)?.kind == reference.id.kind,
            "reference \(reference)")
    }
    let again = ItemDocument.decode(ItemDocument.writable(item, in: collection), in: collection, catalog: catalog, mode: .replace(item))
    fuzzCheck(again.item == item, "its writable document decodes to \(String(describing: again.item)), problems \(again.problems)")
    return 0
}

/// What a stored value of `field` must satisfy, whatever document produced it.
private func checkRules(_ value: FieldValue, _ field: FieldDefinition) {
    let rules = field.rules
    guard value != .null else {
        fuzzCheck(!rules.required || field.readOnly, "\(field.name) is required but null")
        return
    }
    switch (field.type, value) {
    case (let type, .text(let text)) where type.isText:
        fuzzCheck(!text.utf8.contains(0), "NUL in \(field.name)")
        if let max = rules.maxLength { fuzzCheck(text.unicodeScalars.count <= max, "\(field.name) has \(text.unicodeScalars.count) scalars") }
        fuzzCheck(!rules.required || !text.allSatisfy(\.isWhitespace), "\(field.name) is blank")
    case (.enumeration(let cases), .text(let text)):
        fuzzCheck(cases.contains { $0.value == text }, "\(field.name) is \(text.debugDescription)")
    case (.date, .text(let text)):
        fuzzCheck(DateText.date(text) != nil, "\(field.name) is \(text.debugDescription)")
    case (.integer, .integer(let number)), (.decimal, .integer(let number)), (.dateTime, .integer(let number)):
        if let min = rules.minimum { fuzzCheck(number >= min, "\(field.name) \(number) < \(min)") }
        if let max = rules.maximum { fuzzCheck(number <= max, "\(field.name) \(number) > \(max)") }
    case (.money, .money(let money)):
        fuzzCheck(Currency(code: money.currency) != nil, "\(field.name) currency \(money.currency.debugDescription)")
        if let allowed = rules.currencies { fuzzCheck(allowed.contains(money.currency), "\(field.name) currency \(money.currency)") }
        let (minimum, maximum) = rules.moneyRange(in: money.currency)
        if let min = minimum { fuzzCheck(money.minorUnits >= min, "\(field.name) \(money.minorUnits) < \(min)") }
        if let max = maximum { fuzzCheck(money.minorUnits <= max, "\(field.name) \(money.minorUnits) > \(max)") }
    case (.boolean, .boolean), (.reference, .reference), (.numbers, .numbers):
        break
    case (.names(let kind), .names(let names)):
        fuzzCheck(Set(names.map(\.id)).count == names.count, "\(field.name) ids repeat")
        fuzzCheck(names.allSatisfy { $0.id.kind == kind }, "\(field.name) id kinds")
        if let min = rules.minItems { fuzzCheck(names.count >= min, "\(field.name) has \(names.count) entries") }
        if let max = rules.maxItems { fuzzCheck(names.count <= max, "\(field.name) has \(names.count) entries") }
        if let max = rules.maxLength { fuzzCheck(names.allSatisfy { $0.name.unicodeScalars.count <= max }, "\(field.name) name too long") }
    default:
        fuzzCheck(false, "\(field.name) of type \(field.type.name) holds \(value)")
    }
}
