import Domain
import Yams

/// A key of a mapping with its value; `keyNode` is where errors about the key point.
struct Entry {
    let key: String
    let keyNode: Node
    let value: Node
}

/// A mapping whose keys were checked against the keys its place allows.
struct Object {
    let node: Node
    let entries: [Entry]

    func value(_ key: String) -> Node? { entries.first { $0.key == key }?.value }
    func keyNode(_ key: String) -> Node? { entries.first { $0.key == key }?.keyNode }
    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }
}

/// Reading nodes of the expected kind; each reader reports what it expected and returns nil
/// when the node is something else.
extension DefinitionChecker {
    /// How a node reads in a message: "a list", "the number 5".
    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            switch node.tagName {
            case .null: return "null"
            case .bool: return "the boolean \(scalar.string)"
            case .int, .float: return "the number \(scalar.string)"
            default: return "the string \"\(shortened(scalar.string))\""
            }
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    static func shortened(_ text: String) -> String {
        text.unicodeScalars.count <= 40 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
    }

    mutating func wrongKind(_ node: Node, _ what: String, expected: String) {
        report("wrong-kind", "\(what) must be \(expected), not \(Self.describe(node)).", at: node)
    }

    /// `wrongKind`, giving no value.
    mutating func refuseKind<T>(_ node: Node, _ what: String, expected: String) -> T? {
        wrongKind(node, what, expected: expected)
        return nil
    }

    /// The entries of a mapping, keys as strings; a key that is not a scalar, or repeats, is reported.
    mutating func entries(_ node: Node, _ what: String) -> [Entry]? {
        guard case .mapping(let mapping) = node else {
            return refuseKind(node, what, expected: "a mapping")
        }
        var entries: [Entry] = []
        var seen = Set<String>()
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key, key.tagName != .null else {
                report("wrong-kind", "A key in \(what.lowercasedFirst) must be a name, not \(Self.describe(key)).", at: key)
                continue
            }
            guard seen.insert(scalar.string).inserted else {
                report("duplicate-key", "The key \"\(Self.shortened(scalar.string))\" appears twice in \(what.lowercasedFirst); keep one.", at: key)
                continue
            }
            entries.append(Entry(key: scalar.string, keyNode: key, value: value))
        }
        return entries
    }

    /// A mapping of fixed keys: unknown keys are reported with the known ones, missing
    /// required keys at the mapping.
    mutating func object(_ node: Node, _ what: String, known: [String], required: [String] = []) -> Object? {
        guard let entries = entries(node, what) else { return nil }
        for entry in entries where !known.contains(entry.key) {
            reportUnknownKey(entry, in: what, known: known)
        }
        for key in required where !entries.contains(where: { $0.key == key }) {
            report("missing-key", "\(what) lacks the required key `\(key)`.", at: node)
        }
        return Object(node: node, entries: entries.filter { known.contains($0.key) })
    }

    mutating func reportUnknownKey(_ entry: Entry, in what: String, known: [String]) {
        var hint = Self.suggestion(for: entry.key, among: known).map { " Did you mean `\($0)`?" } ?? ""
        // `{description: Tickets of one agent, by id.}`: the comma ended the text, and what
        // followed it reads as a key without a colon (its empty value starts where it ends;
        // Yams does not keep a mapping's flow style). Nearly everyone meets this once.
        if case .scalar(let value) = entry.value, value.string.isEmpty, let end = entry.keyNode.mark, let start = entry.value.mark,
            start.line == end.line, start.column == end.column + entry.key.unicodeScalars.count
        {
            hint += " In a flow mapping `{…}` a comma ends a value: quote a text that holds one (description: \"One agent, by id.\")."
        }
        report(
            "unknown-key",
            "Unknown key `\(Self.shortened(entry.key))` in \(what.lowercasedFirst).\(hint) Known keys: \(known.joined(separator: ", ")).",
            at: entry.keyNode)
    }

    /// Any scalar but null, as its text: `label: 2024` is the text "2024".
    mutating func string(_ node: Node, _ what: String) -> String? {
        guard case .scalar(let scalar) = node, node.tagName != .null else {
            return refuseKind(node, what, expected: "a string")
        }
        return scalar.string
    }

    /// A name: `[a-z][A-Za-z0-9]*`, at most 40 characters (it becomes a URL segment, a JSON key
    /// and a SQLite column name).
    mutating func identifier(_ node: Node, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard Self.isIdentifier(text) else {
            return refuse(
                "bad-name",
                "\(what) \"\(Self.shortened(text))\" is not a valid name: use a lowercase ASCII letter, then letters and digits "
                    + "(at most 40 characters), like `shortDescription`.", at: node)
        }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), bytes.count <= 40 else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// A whole number written in decimal digits, within `range`.
    mutating func integer(_ node: Node, _ what: String, in range: ClosedRange<Int64>) -> Int64? {
        guard case .scalar(let scalar) = node, node.tagName == .int else {
            return refuseKind(node, what, expected: "a whole number")
        }
        guard let value = ScalarNumber.integer(scalar.string) else {
            return refuse(
                "out-of-range", "\(what) \(Self.shortened(scalar.string)) must be a whole number written in decimal digits that fits in 64 bits.",
                at: node)
        }
        guard range.contains(value) else {
            return refuse("out-of-range", "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(value).", at: node)
        }
        return value
    }

    /// An `Int` within `range` (which callers keep small).
    mutating func count(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        integer(node, what, in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
    }

    mutating func boolean(_ node: Node, _ what: String) -> Bool? {
        guard case .scalar(let scalar) = node, node.tagName == .bool else {
            return refuseKind(node, what, expected: "true or false")
        }
        return ["true", "yes", "on"].contains(scalar.string.lowercased())
    }

    mutating func list(_ node: Node, _ what: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            return refuseKind(node, what, expected: "a list")
        }
        return Array(sequence)
    }

    /// A text a person reads: one string for every locale, or a mapping of language or locale
    /// tags (`en`, `de`, `en-GB`) to strings.
    mutating func text(_ node: Node, _ what: String) -> LocalizedText? {
        if case .scalar = node { return string(node, what).map { LocalizedText($0) } }
        guard case .mapping = node else {
            return refuseKind(node, what, expected: "a string or a mapping of locale tags to strings")
        }
        guard let entries = entries(node, what) else { return nil }
        var texts: [(tag: String, text: String)] = []
        var tags = Set<String>()
        var broken = false
        for entry in entries {
            guard LocalizedText.isKnownTag(entry.key) else {
                report(
                    "unknown-locale",
                    "\(what) has the unknown locale tag `\(Self.shortened(entry.key))`; use en, de, fr, ja, en-US, en-GB, de-DE, fr-FR or ja-JP.",
                    at: entry.keyNode)
                broken = true
                continue
            }
            guard tags.insert(entry.key.lowercased()).inserted else {
                report("duplicate-key", "\(what) gives the locale `\(entry.key)` twice; keep one.", at: entry.keyNode)
                broken = true
                continue
            }
            guard let text = string(entry.value, "\(what) in `\(entry.key)`") else {
                broken = true
                continue
            }
            texts.append((entry.key, text))
        }
        if entries.isEmpty {
            return refuse("empty-text", "\(what) is an empty mapping: give a string, or at least one locale's text (en: …).", at: node)
        }
        return broken ? nil : LocalizedText(entries: texts)
    }

    /// The known name closest to a misspelt one, when it is close enough to be a likely typo.
    static func suggestion(for name: String, among known: [String]) -> String? {
        let lowered = Array(name.lowercased().unicodeScalars)
        guard lowered.count <= 60 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(lowered, Array(candidate.lowercased().unicodeScalars))
            if distance <= max(1, candidate.count / 3), distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension Node {
    /// The resolved tag: `str` for a quoted scalar, `int` for `12`, `null` for `~` or nothing.
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
