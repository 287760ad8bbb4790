import Domain

/// A filter's query parameter: its values as the server reads them from the query, one value or
/// (for `oneOf`) a comma-separated list.
extension OpenAPIBuilder {
    static let datePattern = "\\d{4}-\\d{2}-\\d{2}"
    static let moneyPattern = "[A-Z]{3}" + amountPattern
    static let amountPattern = ":-?[0-9]+([.][0-9]+)?"
    static let integerPattern = "-?[0-9]+"

    func filterParameter(_ filter: FilterDefinition, field: FieldDefinition) -> YAMLNode {
        Self.parameter(
            filter.name, filter.description?.english ?? Self.filterSentence(filter, field: field),
            schema: filterSchema(filter.operation, type: field.type, currencies: field.rules.currencies))
    }

    private func filterSchema(_ operation: FilterDefinition.Operation, type: FieldType, currencies: [String]?) -> YAMLNode {
        let list = operation == .oneOf
        /// One value's pattern (unanchored), or its values when they are a closed set.
        enum Shape {
            case pattern(String)
            case values([String])
            case free(format: String?)
        }
        let shape: Shape =
            switch type {
            case .reference(let target): kind(ofCollection: target).map { .pattern(Self.idBody($0)) } ?? .free(format: nil)
            case .enumeration(let cases): .values(cases.map(\.value))
            case .boolean: .values(["true", "false"])
            case .integer: .pattern(Self.integerPattern)
            case .decimal(let scale): .pattern(scale > 0 ? Self.integerPattern + "([.][0-9]{1,\(scale)})?" : Self.integerPattern)
            case .date: .pattern(Self.datePattern)
            case .dateTime: .free(format: "date-time")
            // A currency the field does not allow is a 400, so the pattern names the allowed ones.
            case .money: .pattern(currencies.map { "(\($0.joined(separator: "|")))" + Self.amountPattern } ?? Self.moneyPattern)
            case .text, .longText, .markdown, .email, .phone, .image, .numbers, .names: .free(format: nil)
            }
        switch shape {
        case .pattern(let body):
            return ["type": "string", "pattern": .string(list ? "^(\(body))(,(\(body)))*$" : "^\(body)$")]
        case .values(let values) where list:
            let body = values.map(Self.escapedForPattern).joined(separator: "|")
            return ["type": "string", "pattern": .string("^(\(body))(,(\(body)))*$")]
        case .values(let values):
            return ["type": "string", "enum": .strings(values)]
        case .free(let format?) where !list:
            return ["type": "string", "format": .string(format)]
        case .free:
            return ["type": "string"]
        }
    }

    /// The description of a filter whose definition gives none.
    static func filterSentence(_ filter: FilterDefinition, field: FieldDefinition) -> String {
        let label = field.label.english
        let value =
            switch field.type {
            case .reference(let target): "this \(target) item, by its id"
            case .money: "this: a currency and an amount in major units, USD:100.00"
            case .date: "this date, YYYY-MM-DD"
            case .dateTime: "this instant, RFC 3339"
            case .boolean: "true or false"
            default: "this value"
            }
        return switch filter.operation {
        case .equals: "Only items whose \(label) is \(value)."
        case .oneOf:
            "Only items whose \(label) is one of these values, comma-separated"
                + (field.type.referencedCollection.map { " (ids of \($0) items)" } ?? "") + "."
        case .atLeast: "Only items whose \(label) is at least \(value)."
        case .atMost: "Only items whose \(label) is at most \(value)."
        }
    }
}
