import Foundation
import RowKit
import Yams

/// Bodies made from openapi.yaml's schemas, schemathesis-style: for each schema, the smallest
/// instance (required members only, nullable ones null, empty arrays) and full ones (every
/// member, every enum value and `oneOf` branch somewhere, nullable ones given a value).
struct SpecInstances {
    let document: [String: Any]

    init() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../openapi.yaml").standardized
        guard let document = try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any] else {
            throw RowKitError.coding("openapi.yaml is not a mapping")
        }
        self.document = document
    }

    /// Every response of every operation with a JSON body: "GET /v1/people 200" → its schema.
    var responses: [(name: String, schema: [String: Any])] {
        var result: [(String, [String: Any])] = []
        let paths = document["paths"] as? [String: Any] ?? [:]
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for (method, operation) in (item as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                for (status, response) in responses.sorted(by: { $0.key < $1.key }) {
                    let content = resolve(response as? [String: Any] ?? [:])["content"] as? [String: Any] ?? [:]
                    for (mediaType, media) in content where mediaType.hasSuffix("json") {
                        if let schema = (media as? [String: Any])?["schema"] as? [String: Any] {
                            result.append(("\(method.uppercased()) \(path) \(status)", schema))
                        }
                    }
                }
            }
        }
        return result
    }

    /// The schema a `$ref` names (components of any kind), or the schema itself.
    func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/") else { return schema }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(part)] else { return [:] }
            node = next
        }
        return node as? [String: Any] ?? [:]
    }

    /// The name of the component a `$ref` points to ("RowPage"), if it is one.
    static func referenceName(_ schema: [String: Any]) -> String? {
        (schema["$ref"] as? String)?.split(separator: "/").last.map(String.init)
    }

    /// The minimal instance first, then full ones until every enum value and branch was used.
    func instances(_ schema: [String: Any]) -> [JSONValue] {
        [instance(schema, full: false, variant: 0)] + (0..<variantCount(schema)).map { instance(schema, full: true, variant: $0) }
    }

    private func variantCount(_ schema: [String: Any], depth: Int = 0) -> Int {
        let schema = resolve(schema)
        guard depth < 8 else { return 1 }
        var count = 1
        if let branches = schema["oneOf"] as? [[String: Any]] {
            count = max(count, branches.reduce(0) { $0 + variantCount($1, depth: depth + 1) })
        }
        if let values = schema["enum"] as? [Any] { count = max(count, values.count) }
        if (Self.types(schema)).contains("boolean") { count = max(count, 2) }
        for (_, property) in schema["properties"] as? [String: [String: Any]] ?? [:] {
            count = max(count, variantCount(property, depth: depth + 1))
        }
        if let items = schema["items"] as? [String: Any] { count = max(count, variantCount(items, depth: depth + 1)) }
        return count
    }

    private func instance(_ schema: [String: Any], full: Bool, variant: Int, depth: Int = 0) -> JSONValue {
        let schema = resolve(schema)
        if let value = schema["const"] { return Self.json(value) }
        if let values = schema["enum"] as? [Any], !values.isEmpty { return Self.json(values[variant % values.count]) }
        if let branches = schema["oneOf"] as? [[String: Any]], !branches.isEmpty {
            return instance(branches[variant % branches.count], full: full, variant: variant / branches.count, depth: depth + 1)
        }
        let types = Self.types(schema)
        if types.contains("null"), !full || depth > 6 || types.count == 1 { return .null }
        switch types.first(where: { $0 != "null" }) {
        case "object":
            var object: [String: JSONValue] = [:]
            let required = Set(schema["required"] as? [String] ?? [])
            for (name, property) in schema["properties"] as? [String: [String: Any]] ?? [:] where full || required.contains(name) {
                object[name] = instance(property, full: full, variant: variant, depth: depth + 1)
            }
            if full, let values = schema["additionalProperties"] as? [String: Any] {
                object["extra"] = instance(values, full: variant % 2 == 0, variant: variant, depth: depth + 1)
            }
            return .object(object)
        case "array":
            guard full, let items = schema["items"] as? [String: Any] else { return .array([]) }
            return .array([
                instance(items, full: true, variant: variant, depth: depth + 1), instance(items, full: false, variant: variant + 1, depth: depth + 1),
            ])
        case "integer": return .integer(schema["minimum"] as? Int ?? 1)
        case "number": return .number(1.5)
        case "boolean": return .bool(variant % 2 == 0)
        default:
            let pattern = schema["pattern"] as? String ?? ""
            return .string(pattern.hasPrefix("^/v1/") ? "/v1/things/thg_0000000000000001" : "text \(variant)")
        }
    }

    private static func types(_ schema: [String: Any]) -> [String] {
        if let type = schema["type"] as? String { return [type] }
        if let types = schema["type"] as? [String] { return types }
        if schema["properties"] != nil { return ["object"] }
        return []
    }

    private static func json(_ value: Any) -> JSONValue {
        switch value {
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let integer as Int: .integer(integer)
        case let number as Double: .number(number)
        default: .null
        }
    }
}
