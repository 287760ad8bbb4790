import Definitions
import Domain
import Foundation

/// A random definition: owners, and things with a random set of typed fields, every sortable
/// one a sort, sections by a reference or enum when there is one, equality filters.
struct RandomDefinition {
    struct Field {
        var name: String
        var yaml: String
        var sortable: Bool
        var sectionable: Bool
        var filter: String?
    }

    let seed: UInt64
    var fields: [Field] = []

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        let candidates: [Field] = [
            Field(name: "title", yaml: "{type: text, maxLength: 40, label: Title}", sortable: true, sectionable: false, filter: nil),
            Field(
                name: "count", yaml: "{type: integer, minimum: -50, maximum: 50, label: Count}", sortable: true, sectionable: false, filter: "atLeast"
            ),
            Field(name: "ratio", yaml: "{type: decimal, scale: 2, label: Ratio}", sortable: true, sectionable: false, filter: nil),
            Field(name: "done", yaml: "{type: boolean, label: Done}", sortable: true, sectionable: false, filter: "equals"),
            Field(name: "day", yaml: "{type: date, label: Day}", sortable: true, sectionable: false, filter: "atMost"),
            Field(name: "at", yaml: "{type: dateTime, label: At}", sortable: true, sectionable: false, filter: nil),
            Field(
                name: "stage", yaml: "{type: enum, values: {new: New, mid: Middle, old: Old}, label: Stage}", sortable: true, sectionable: true,
                filter: "oneOf"),
            Field(name: "cost", yaml: "{type: money, currencies: [USD, EUR], label: Cost}", sortable: true, sectionable: false, filter: "atLeast"),
            Field(name: "owner", yaml: "{type: reference, to: owners, label: Owner}", sortable: false, sectionable: true, filter: "equals"),
            Field(name: "mail", yaml: "{type: email, label: Mail}", sortable: true, sectionable: false, filter: nil),
        ]
        var chosen = candidates.filter { _ in random.chance(55) }
        if chosen.isEmpty { chosen = [candidates[random.next(below: candidates.count)]] }
        // Required now and then: the writes test leaves one out.
        fields = chosen.map { field in
            var field = field
            if random.chance(40) { field.yaml = field.yaml.replacingOccurrences(of: "{type:", with: "{required: true, type:") }
            return field
        }
    }

    var sorts: [String] { fields.filter(\.sortable).map(\.name) }
    var sections: String? { fields.first(where: \.sectionable)?.name }

    var yaml: String {
        let declared = fields.map { "      \($0.name): \($0.yaml)" }.joined(separator: "\n")
        var lines = [
            "rowserver: 1", "collections:", "  owners:", "    idPrefix: own", "    title: Owners", "    fields:",
            "      name: {type: text, required: true, label: Name}", "    row: {title: name}", "    sort: [name]",
            "  things:", "    idPrefix: thg", "    title: Things", "    fields:", "      label: {type: text, required: true, label: Label}",
            declared, "    row: {title: label}", "    sort: [\((["label"] + sorts).joined(separator: ", "))]", "    defaultSort: [label]",
        ]
        if let sections { lines.append("    sections: {by: \(sections), name: group}") }
        let filters = fields.compactMap { field in field.filter.map { "      \(field.name)Filter: {field: \(field.name), op: \($0)}" } }
        if !filters.isEmpty { lines += ["    filters:"] + filters }
        return lines.joined(separator: "\n") + "\n"
    }

    func catalog() throws -> Catalog { try DefinitionLoader.load(text: yaml, file: "random-\(seed).yaml") }
}

extension JSONValue {
    /// The document as JSON text (for request bodies in tests).
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.text
        case .string(let string):
            var escaped = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONValue.string($0.key).text + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }
}
