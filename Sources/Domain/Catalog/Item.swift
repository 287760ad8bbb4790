/// One item of any collection: its id and the values of its stored fields.
///
/// `values` holds one value per stored field, in the collection's slot order
/// (``CollectionDefinition/slots``); computed fields are not stored and have no slot.
public struct Item: Sendable, Hashable, Identifiable {
    public var id: EntityID
    public var values: [FieldValue]

    public init(id: EntityID, values: [FieldValue]) {
        self.id = id
        self.values = values
    }

    /// The value in `slot`; `null` for a slot the item does not have.
    public subscript(slot slot: Int) -> FieldValue {
        values.indices.contains(slot) ? values[slot] : .null
    }
}
