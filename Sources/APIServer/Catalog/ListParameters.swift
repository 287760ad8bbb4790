import Domain
import Foundation
import HTTPServer
import Storage

/// A catalog list request's parameters, validated against its collection's definition: an
/// unknown parameter, sort, group or filter value is a 400 that names it.
struct ListParameters: Sendable, Hashable {
    enum View: String, Sendable, Hashable { case rows, table }

    /// A filter as given (for links) and as the store runs it.
    struct Filter: Sendable, Hashable {
        var name: String
        var text: String
        var condition: FieldCondition
    }

    static let maxSearchLength = 200
    static let maxCursorLength = 2_048

    var sort: [SortKey]
    var filters: [Filter] = []
    var search: String?
    var sections = false
    var view = View.rows
    var limit: Int
    var cursor: String?
    /// `around=ID`: the page that holds this row, with it in the middle (not with a cursor).
    var around: String?
    /// `ids=a,b,c`: those rows, in that order (with `view` only).
    var ids: [EntityID]?
    /// `count=exact|estimated|none` as given; nil: the collection's `defaultCount`.
    var count: ListCount?

    static func parse(_ items: [QueryItem], for collection: CollectionDefinition, catalog: Catalog) throws(HTTPError) -> ListParameters {
        var seen = Set<String>()
        var parameters = ListParameters(sort: collection.defaultSort, limit: collection.limits.defaultLimit)
        for item in items {
            guard seen.insert(item.name).inserted else {
                throw .badRequest("DUPLICATE_PARAMETER", "The parameter '\(item.name)' is given more than once.", parameter: item.name)
            }
            switch item.name {
            case "limit": parameters.limit = try parseLimit(item.value, max: collection.limits.maxLimit)
            case "cursor":
                guard !item.value.isEmpty, item.value.utf8.count <= maxCursorLength else {
                    throw .badRequest("INVALID_CURSOR", "The cursor is empty or too long.", parameter: "cursor")
                }
                parameters.cursor = item.value
            case "around":
                guard EntityID(parsing: item.value, kind: collection.kind) != nil else {
                    throw .badRequest("INVALID_AROUND", "around names no item of \(collection.name): give a row's id.", parameter: "around")
                }
                parameters.around = item.value
            case "ids": parameters.ids = try parseIDs(item.value, for: collection)
            case "count":
                guard let count = ListCount(rawValue: item.value) else {
                    throw .badRequest("INVALID_COUNT", "count must be 'exact', 'estimated' or 'none'.", parameter: "count")
                }
                parameters.count = count
            case "sort": parameters.sort = try parseSort(item.value, for: collection)
            case "q":
                guard collection.isSearchable else {
                    throw .badRequest("INVALID_SEARCH", "\(collection.name) cannot be searched.", parameter: "q")
                }
                // In code points, as the document's maxLength counts (a letter with marks is one Character, several points).
                guard item.value.unicodeScalars.count <= maxSearchLength else {
                    throw .badRequest("INVALID_SEARCH", "q is longer than \(maxSearchLength) characters.", parameter: "q")
                }
                let trimmed = item.value.trimmingCharacters(in: .whitespaces)
                parameters.search = trimmed.isEmpty ? nil : trimmed
            case "view":
                guard let view = View(rawValue: item.value), view == .rows || collection.table != nil else {
                    let allowed = collection.table != nil ? "'rows' or 'table'" : "'rows'"
                    throw .badRequest("INVALID_VIEW", "view must be \(allowed) for \(collection.name).", parameter: "view")
                }
                parameters.view = view
            case "group":
                guard let sections = collection.sections, item.value == sections.name else {
                    throw .badRequest(
                        "INVALID_GROUP",
                        collection.sections.map { "group must be '\($0.name)'." } ?? "\(collection.name) offer no sections.", parameter: "group")
                }
                parameters.sections = true
            default:
                guard let filter = collection.filter(named: item.name) else {
                    throw .badRequest("UNKNOWN_PARAMETER", "The parameter '\(item.name)' is not known here.", parameter: item.name)
                }
                let condition = try FilterValue.condition(filter, item.value, in: collection, catalog: catalog)
                parameters.filters.append(Filter(name: item.name, text: item.value, condition: condition))
            }
        }
        // A selection by id is those rows in that order: nothing else orders, filters or positions it.
        if parameters.ids != nil, let other = seen.subtracting(["ids", "view"]).sorted().first {
            throw .badRequest("INVALID_IDS", "ids selects rows by id and takes no \(other); give it alone (view may join it).", parameter: "ids")
        }
        if parameters.around != nil && parameters.cursor != nil {
            throw .badRequest("INVALID_AROUND", "around opens a page of its own: give it without a cursor.", parameter: "around")
        }
        if parameters.sections && parameters.view == .table {
            throw .badRequest("INVALID_GROUP", "Sections and the table view cannot be combined.", parameter: "group")
        }
        return parameters
    }

    /// How this list's pages count their rows: as asked, else as the collection says.
    func counting(_ collection: CollectionDefinition) -> ListCount {
        ids != nil ? .none : count ?? collection.defaultCount
    }

    /// Comma-separated ids of the collection, each once, at most a page of them (its largest limit).
    static func parseIDs(_ text: String, for collection: CollectionDefinition) throws(HTTPError) -> [EntityID] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= collection.limits.maxLimit else {
            throw .badRequest(
                "TOO_MANY_IDS", "ids names \(parts.count) rows; at most \(collection.limits.maxLimit) at once.", parameter: "ids")
        }
        var ids: [EntityID] = []
        var seen = Set<EntityID>()
        for part in parts {
            guard let id = EntityID(parsing: String(part), kind: collection.kind) else {
                let shown = part.isEmpty ? "an empty id" : "'\(part.prefix(64))'"
                throw .badRequest("INVALID_IDS", "ids holds \(shown), which is no id of \(collection.name).", parameter: "ids")
            }
            guard seen.insert(id).inserted else {
                throw .badRequest("INVALID_IDS", "ids names \(id.rawValue) twice.", parameter: "ids")
            }
            ids.append(id)
        }
        return ids
    }

    /// 1…max in plain decimal digits: `0`, `-1`, `1e3`, `abc` and empty are refused.
    static func parseLimit(_ text: String, max: Int) throws(HTTPError) -> Int {
        guard !text.isEmpty, text.utf8.count <= 4, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text), (1...max).contains(value)
        else {
            throw .badRequest("INVALID_LIMIT", "limit must be a whole number from 1 to \(max).", parameter: "limit")
        }
        return value
    }

    /// `-price,name`: the collection's sorts, `-` for descending, each once.
    static func parseSort(_ text: String, for collection: CollectionDefinition) throws(HTTPError) -> [SortKey] {
        var keys: [SortKey] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let descending = part.hasPrefix("-")
            let field = String(descending ? part.dropFirst() : part)
            guard collection.sort(named: field) != nil else {
                let shown = field.isEmpty ? "an empty field" : "'\(field.prefix(64))'"
                // A sort is addressed by its name, which may differ from its field's: say which sort that is.
                let named = collection.sorts.first { collection.fields.indices.contains($0.field) && collection.fields[$0.field].name == field }
                let hint = named.map { " Sorts go by their names: the sort by the field \(shown) is named '\($0.name)'." } ?? ""
                throw .badRequest(
                    "INVALID_SORT",
                    "Cannot sort \(collection.name) by \(shown); sortable: \(collection.sorts.map(\.name).joined(separator: ", ")).\(hint)",
                    parameter: "sort")
            }
            guard !keys.contains(where: { $0.field == field }) else {
                throw .badRequest("INVALID_SORT", "sort names '\(field)' twice.", parameter: "sort")
            }
            keys.append(SortKey(field, descending: descending))
        }
        return keys
    }
}

/// The query a cursor continues: collection, parent, and every parameter but the cursor and limit.
struct CatalogShape: Sendable, CursorShape {
    let collection: ServedCollection
    let parent: EntityID?
    let parameters: ListParameters
    /// One level of an outline (its roots, or one node's children); nil: every item.
    let level: TreeLevel?
    /// Its fingerprint and links, made once per list (`ListShapes`).
    let facts: ListShapes.Facts

    init(collection: ServedCollection, parent: EntityID?, parameters: ListParameters, level: TreeLevel? = nil) {
        self.collection = collection
        self.parent = parent
        self.parameters = parameters
        self.level = level
        facts = collection.listShapes.value(for: ListShapes.Key(parent: parent, parameters: parameters, level: level)) {
            ListShapes.Facts(collection: collection, parent: parent, parameters: parameters, level: level)
        }
    }

    var canonical: String { Self.canonical(collection.name, parent: parent, parameters: parameters, level: level) }

    /// An outline's level takes the parent's place: a node's id for its children, `/` (never in
    /// an id) for the roots, so no cursor of one list opens another.
    static func canonical(_ name: String, parent: EntityID?, parameters: ListParameters, level: TreeLevel? = nil) -> String {
        var text = name
        switch level {
        case .roots?: text += "|p=/"
        case .children(let node)?: text += "|p=" + node.rawValue
        case nil: text += "|p=" + (parent?.rawValue ?? "")
        }
        text += "|s=" + parameters.sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")
        text += "|f=" + parameters.filters.map { "\($0.name):\($0.condition.values)" }.joined(separator: ",")
        text += "|q=" + (parameters.search.map { searchFolded($0) } ?? "")
        text += "|g=" + (parameters.sections ? "1" : "")
        text += "|v=" + parameters.view.rawValue
        return text
    }

    var fingerprint: [UInt8] { facts.fingerprint }
}
