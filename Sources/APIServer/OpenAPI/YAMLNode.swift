/// A YAML (and JSON) value built in code, with maps that keep their keys in the order they were
/// written: the OpenAPI document must come out the same bytes for the same catalog, and in the
/// order a reader expects (`type` before `properties`, paths in catalog order).
///
/// The literal conformances let the document read like the YAML it becomes:
/// `["type": "string", "maxLength": 200]`.
indirect enum YAMLNode: Sendable {
    case map([(String, YAMLNode)])
    case list([YAMLNode])
    case string(String)
    case int(Int64)
    /// A number written as given: a decimal literal such as `12.5` (a decimal field's bounds).
    case number(String)
    case bool(Bool)
    case null

    /// The value under `key` of a map; nil for a missing key or a node that is not a map.
    subscript(key: String) -> YAMLNode? { entries.first { $0.0 == key }?.1 }

    /// The entries of a map, in order; empty for the other nodes.
    var entries: [(String, YAMLNode)] {
        guard case .map(let entries) = self else { return [] }
        return entries
    }

    /// The keys of a map, in order; empty for the other nodes.
    var keys: [String] { entries.map(\.0) }

    /// The elements of a list; empty for the other nodes.
    var elements: [YAMLNode] {
        guard case .list(let elements) = self else { return [] }
        return elements
    }

    var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// A map with `value` under `key`: replaced in place when the key is there, else appended.
    /// Other nodes are returned unchanged.
    func setting(_ key: String, to value: YAMLNode) -> YAMLNode {
        guard case .map(var entries) = self else { return self }
        if let index = entries.firstIndex(where: { $0.0 == key }) {
            entries[index].1 = value
        } else {
            entries.append((key, value))
        }
        return .map(entries)
    }
}

extension YAMLNode: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension YAMLNode: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(arrayLiteral elements: YAMLNode...) { self = .list(elements) }
    /// Keeps the literal's order (a Swift dictionary would not).
    init(dictionaryLiteral elements: (String, YAMLNode)...) { self = .map(elements) }
}

extension YAMLNode {
    static func int(_ value: Int) -> YAMLNode { .int(Int64(value)) }

    /// A list of strings.
    static func strings(_ values: [String]) -> YAMLNode { .list(values.map(YAMLNode.string)) }
}
