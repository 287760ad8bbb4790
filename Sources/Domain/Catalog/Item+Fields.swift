extension Item {
    /// An item of `collection` from values by field name; fields not named (and names that are
    /// not stored fields of the collection) are null.
    public init(id: EntityID, in collection: CollectionDefinition, _ values: [String: FieldValue]) {
        var slots = [FieldValue](repeating: .null, count: collection.slots.count)
        for (name, value) in values {
            guard let slot = collection.field(named: name)?.slot, slots.indices.contains(slot) else { continue }
            slots[slot] = value
        }
        self.init(id: id, values: slots)
    }

    /// The value of the stored field called `name`, or null.
    public func value(of name: String, in collection: CollectionDefinition) -> FieldValue {
        guard let slot = collection.field(named: name)?.slot else { return .null }
        return self[slot: slot]
    }
}
