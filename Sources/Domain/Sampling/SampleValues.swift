/// One sample value per field, within its rules: lengths, bounds, choices, currencies, counts.
struct SampleValues {
    let catalog: Catalog
    /// Items made so far, by collection: what references may name (an outline's own nodes too,
    /// as they are made, so its samples form a tree).
    var made: [String: [Item]]

    static let words = [
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "island", "juniper", "kestrel", "lantern", "meadow",
        "north", "orchard", "pine", "quartz", "river", "summit", "timber", "umber", "valley", "willow", "yarrow", "zephyr",
    ]

    mutating func item(id: EntityID, in collection: CollectionDefinition, parent: Item?, index: Int, random: inout SeededRandom) -> Item {
        var values = [FieldValue](repeating: .null, count: collection.slots.count)
        for (slot, field) in collection.storedFields.enumerated() {
            if let parentField = collection.parent?.field, collection.fields[parentField].slot == slot, let parent {
                values[slot] = .reference(parent.id)
                continue
            }
            // Optional fields are left empty now and then, as real data is.
            if !field.rules.required && field.defaultValue == nil && random.chance(15) { continue }
            values[slot] = value(for: field, in: collection, values: values, index: index, random: &random)
        }
        return Item(id: id, values: values)
    }

    func value(for field: FieldDefinition, in collection: CollectionDefinition, values: [FieldValue], index: Int, random: inout SeededRandom)
        -> FieldValue
    {
        let rules = field.rules
        switch field.type {
        case .text, .longText, .markdown:
            let count = field.type == .text ? random.next(in: 1...3) : random.next(in: 4...12)
            var text = (0..<count).map { _ in random.pick(Self.words) }.joined(separator: " ")
            if field.type == .text { text = text.prefix(1).uppercased() + text.dropFirst() + " \(index + 1)" }
            return .text(Self.fit(text, rules))
        case .email:
            return .text(Self.fit("\(random.pick(Self.words)).\(index + 1)@example.com", rules, keepEnd: true))
        case .phone:
            return .text("+1 555 \(1_000 + random.next(below: 9_000))")
        case .image:
            return .text(random.pick(["star", "tray", "doc.text", "person", "tag"]))
        case .money:
            let currency = rules.currencies?.first ?? random.pick(["USD", "EUR", "JPY"])
            let (minimum, maximum) = rules.moneyRange(in: currency)
            let minor = Self.number(minimum: minimum, maximum: maximum, default: 100...100_000, random: &random)
            return .money(Money(minorUnits: minor, currency: currency))
        case .integer, .decimal:
            return .integer(Self.number(rules, default: 0...1_000, random: &random))
        case .boolean:
            return .boolean(random.chance(50))
        case .date:
            return .text(DateText.text(days: Int64(20_454 + random.next(below: 365))))  // within 2026
        case .dateTime:
            return .integer(Self.number(rules, default: 1_767_225_600_000...1_798_761_600_000, random: &random))
        case .enumeration(let cases):
            return cases.isEmpty ? .null : .text(random.pick(cases).value)
        case .reference(let target):
            guard let candidates = made[target], !candidates.isEmpty else { return .null }
            return .reference(random.pick(candidates).id)
        case .numbers(let digits):
            let scale = Double([1, 10, 100, 1_000, 10_000, 100_000, 1_000_000][min(max(digits, 0), 6)])
            let count = labelCount(field, in: collection, values: values) ?? Self.count(rules, random: &random)
            return .numbers((0..<count).map { _ in (Double(random.next(below: 2_000)) - 1_000) / 1_000 * scale / scale })
        case .names(let kind):
            let count = Self.count(rules, random: &random)
            return .names(
                (0..<count).map { position in
                    NamedEntry(
                        id: EntityID.generate(kind: kind, at: 1_767_225_600_000 + Int64(index * 64 + position), using: &random),
                        name: Self.fit(random.pick(Self.words).capitalized + " \(position + 1)", rules))
                })
        }
    }

    /// How many names a labelled numbers field is aligned with, from the referenced item.
    func labelCount(_ field: FieldDefinition, in collection: CollectionDefinition, values: [FieldValue]) -> Int? {
        guard let labels = field.labels, collection.fields.indices.contains(labels.reference),
            let slot = collection.fields[labels.reference].slot, values.indices.contains(slot), let id = values[slot].reference,
            let target = collection.fields[labels.reference].type.referencedCollection, let items = made[target],
            let referenced = items.first(where: { $0.id == id }), let targetCollection = catalog.collection(named: target),
            targetCollection.fields.indices.contains(labels.names), let namesSlot = targetCollection.fields[labels.names].slot
        else { return nil }
        return referenced[slot: namesSlot].names?.count
    }

    /// Text within the length rules: cut to `maxLength` scalars (keeping the end for e-mails), padded to `minLength`.
    static func fit(_ text: String, _ rules: FieldRules, keepEnd: Bool = false) -> String {
        var text = text
        if let max = rules.maxLength, text.unicodeScalars.count > max {
            let scalars = Array(text.unicodeScalars)
            text = String(String.UnicodeScalarView(keepEnd ? scalars.suffix(max) : scalars.prefix(max)))
        }
        if let min = rules.minLength, text.unicodeScalars.count < min {
            text += String(repeating: "x", count: min - text.unicodeScalars.count)
        }
        return text
    }

    /// A number within the bounds (or `range` where a bound is missing); never overflows.
    static func number(_ rules: FieldRules, default range: ClosedRange<Int64>, random: inout SeededRandom) -> Int64 {
        number(minimum: rules.minimum, maximum: rules.maximum, default: range, random: &random)
    }

    /// A number within `minimum...maximum` (or `range` where a bound is missing); never overflows.
    static func number(minimum: Int64?, maximum: Int64?, default range: ClosedRange<Int64>, random: inout SeededRandom) -> Int64 {
        let low = minimum ?? Swift.min(range.lowerBound, maximum ?? range.lowerBound)
        var high = maximum ?? Swift.max(low, range.upperBound)
        if maximum == nil, let minimum {
            let (shifted, overflow) = minimum.addingReportingOverflow(range.upperBound - range.lowerBound)
            high = overflow ? Int64.max : shifted
        }
        guard high > low else { return low }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span < Int64.max else { return low / 2 + high / 2 }
        return low + Int64(random.next() % UInt64(span + 1))
    }

    static func count(_ rules: FieldRules, random: inout SeededRandom) -> Int {
        let low = rules.minItems ?? 1
        let high = Swift.max(low, Swift.min(rules.maxItems ?? 4, low + 3))
        return random.next(in: low...high)
    }
}

extension String {
    fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
