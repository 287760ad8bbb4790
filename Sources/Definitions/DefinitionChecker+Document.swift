import Domain
import Yams

/// The first pass: the file's top level, each collection's own keys, and its fields.
extension DefinitionChecker {
    static let collectionKeys = [
        "idPrefix", "title", "fields", "row", "sort", "defaultSort", "filters", "search", "sections", "table", "empty", "searchEmpty",
        "filteredEmpty", "limit", "parent", "tree", "writable", "read", "count",
    ]
    static let reservedFieldNames = ["id", "links"]

    /// The collections in declared order; nil when the file has none to check further.
    mutating func readDocument(_ root: Node) -> [CollectionDraft]? {
        guard let top = object(root, "The definition", known: ["rowserver", "collections"], required: ["rowserver", "collections"]) else {
            return nil
        }
        if let version = top.value("rowserver") {
            let isOne: Bool
            if case .scalar(let scalar) = version, version.tagName == .int, ScalarNumber.integer(scalar.string) == 1 {
                isOne = true
            } else {
                isOne = false
            }
            if !isOne {
                report(
                    "unsupported-version",
                    "`rowserver` must be the number 1, the format version this server reads, not \(Self.describe(version)).", at: version)
            }
        }
        guard let node = top.value("collections"), let entries = entries(node, "`collections`") else { return nil }
        if entries.isEmpty {
            return refuse("no-collections", "`collections` is empty: declare at least one collection.", at: node)
        }
        var drafts: [CollectionDraft] = []
        var seen: [String: String] = [:]
        for entry in entries {
            if identifier(entry.keyNode, "The collection name") != nil {
                if let earlier = seen[entry.key.lowercased()] {
                    report(
                        "duplicate-collection",
                        "The collection `\(entry.key)` differs from `\(earlier)` only in letter case; collection names become table "
                            + "names and must differ in more than case.", at: entry.keyNode)
                } else {
                    seen[entry.key.lowercased()] = entry.key
                }
            }
            drafts.append(readCollection(entry))
        }
        return drafts
    }

    private mutating func readCollection(_ entry: Entry) -> CollectionDraft {
        let what = "collection `\(entry.key)`"
        let body = object(entry.value, what, known: Self.collectionKeys, required: ["idPrefix", "title", "fields", "row"])
        var draft = CollectionDraft(name: entry.key, keyNode: entry.keyNode, body: body)
        guard let body else { return draft }
        if let node = body.value("idPrefix") { draft.kind = idPrefix(node, "`idPrefix` of \(what)") }
        if let node = body.value("title") { draft.title = text(node, "The title of \(what)") }
        if let node = body.value("writable") { draft.writable = boolean(node, "`writable` of \(what)") ?? true }
        if let node = body.value("read") {
            switch string(node, "`read` of \(what)") {
            case "public"?: draft.readsNeedKey = false
            case "key"?: draft.readsNeedKey = true
            case let other?:
                report(
                    "invalid-read-access",
                    "`read` of \(what) must be `public` (anyone may read) or `key` (an API key with a read scope), not `\(other)`.", at: node)
            case nil: break
            }
        }
        if let node = body.value("count") {
            switch string(node, "`count` of \(what)").map({ ($0, ListCount(rawValue: $0)) }) {
            case (_, let count?)?: draft.defaultCount = count
            case (let other, nil)?:
                report(
                    "invalid-count",
                    "`count` of \(what) must be `exact` (counted up to 10,000 rows), `estimated` or `none` (the default), not `\(other)`.",
                    at: node)
            case nil: break
            }
        }
        guard let node = body.value("fields"), let entries = entries(node, "The fields of \(what)") else { return draft }
        if entries.isEmpty {
            report("no-fields", "The fields of \(what) are empty: declare at least one field.", at: node)
        }
        var seen: [String: String] = [:]
        var slot = 0
        for entry in entries {
            if identifier(entry.keyNode, "The field name") != nil {
                if Self.reservedFieldNames.contains(entry.key) {
                    report(
                        "reserved-field-name", "The field name `\(entry.key)` in \(what) is reserved (id, links are the API's own keys); rename it.",
                        at: entry.keyNode)
                } else if let earlier = seen[entry.key.lowercased()] {
                    report(
                        "duplicate-field",
                        "The field `\(entry.key)` in \(what) differs from `\(earlier)` only in letter case; field names become column "
                            + "names and must differ in more than case.", at: entry.keyNode)
                } else {
                    seen[entry.key.lowercased()] = entry.key
                }
            }
            var field = readField(entry, collection: draft.name)
            if field.isStored {
                field.slot = slot
                slot += 1
            }
            if draft.fieldIndex[field.name] == nil { draft.fieldIndex[field.name] = draft.fields.count }
            draft.fields.append(field)
        }
        return draft
    }

    /// Id prefixes name a kind of id everywhere (`prd_…`), so collections and `names` fields
    /// must all differ.
    mutating func checkIDPrefixes(_ drafts: [CollectionDraft]) {
        var owners: [EntityKind: String] = [:]
        for draft in drafts {
            if let kind = draft.kind, let node = draft.body?.value("idPrefix") {
                claim(kind, by: draft.what, at: node, &owners)
            }
            for field in draft.fields {
                if case .names(let kind)? = field.type, let node = field.idPrefixNode {
                    claim(kind, by: field.what, at: node, &owners)
                }
            }
        }
    }

    private mutating func claim(_ kind: EntityKind, by owner: String, at node: Node, _ owners: inout [EntityKind: String]) {
        if let earlier = owners[kind] {
            report("duplicate-id-prefix", "The id prefix `\(kind)` of \(owner) is already used by \(earlier); every prefix must be unique.", at: node)
        } else {
            owners[kind] = owner
        }
    }
}
