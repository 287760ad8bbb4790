/// A filter's test with its values: `equals` and the bounds take one value, `oneOf` several.
/// Money bounds compare within the value's currency only. What a store runs and what an empty
/// state's `{filters}` reads (`FilterSummary`).
public struct FieldCondition: Sendable, Hashable {
    public var field: Int
    public var operation: FilterDefinition.Operation
    public var values: [FieldValue]

    public init(field: Int, operation: FilterDefinition.Operation, values: [FieldValue]) {
        self.field = field
        self.operation = operation
        self.values = values
    }
}
