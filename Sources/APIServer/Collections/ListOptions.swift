import Domain
import Foundation
import HTTPServer
import Storage

/// A list request's parameters, validated: what to fetch and how to present it.
struct ListOptions: Sendable, Hashable {
    enum View: String, Sendable, Hashable { case rows, table }

    static let defaultLimit = 50
    static let maxLimit = 200
    static let maxSearchLength = 200
    static let maxCursorLength = 2_048

    var sort: [SortKey]
    var filters: [ListFilter]
    var search: String?
    var groupByDepartment: Bool
    var view: View
    var limit: Int
    /// The raw cursor text, checked against the rest by `Cursor.open`.
    var cursor: String?

    /// Reads and checks every query parameter; an unknown one is a 400 naming it.
    static func parse(_ items: [QueryItem], for descriptor: CollectionDescriptor) throws(HTTPError) -> ListOptions {
        var seen = Set<String>()
        var options = ListOptions(
            sort: descriptor.collection.defaultSort, filters: [], search: nil, groupByDepartment: false, view: .rows,
            limit: defaultLimit, cursor: nil)
        for item in items {
            guard seen.insert(item.name).inserted else {
                throw .badRequest("DUPLICATE_PARAMETER", "The parameter '\(item.name)' is given more than once.", parameter: item.name)
            }
            switch item.name {
            case "limit": options.limit = try parseLimit(item.value)
            case "cursor":
                guard !item.value.isEmpty, item.value.utf8.count <= maxCursorLength else {
                    throw .badRequest("INVALID_CURSOR", "The cursor is empty or too long.", parameter: "cursor")
                }
                options.cursor = item.value
            case "sort": options.sort = try parseSort(item.value, for: descriptor.collection)
            case "q":
                guard descriptor.offersSearch else {
                    throw .badRequest("INVALID_SEARCH", "\(descriptor.collection.rawValue) cannot be searched.", parameter: "q")
                }
                guard item.value.count <= maxSearchLength else {
                    throw .badRequest("INVALID_SEARCH", "q is longer than \(maxSearchLength) characters.", parameter: "q")
                }
                let trimmed = item.value.trimmingCharacters(in: .whitespaces)
                options.search = trimmed.isEmpty ? nil : trimmed
            case "view":
                guard let view = View(rawValue: item.value), view == .rows || descriptor.offersTable else {
                    let allowed = descriptor.offersTable ? "'rows' or 'table'" : "'rows'"
                    throw .badRequest("INVALID_VIEW", "view must be \(allowed) for \(descriptor.collection.rawValue).", parameter: "view")
                }
                options.view = view
            case "group":
                guard descriptor.offersSections, item.value == "department" else {
                    throw .badRequest(
                        "INVALID_GROUP",
                        descriptor.offersSections ? "group must be 'department'." : "\(descriptor.collection.rawValue) offer no sections.",
                        parameter: "group")
                }
                options.groupByDepartment = true
            default:
                guard let filter = descriptor.filters.first(where: { $0.name == item.name }) else {
                    throw .badRequest("UNKNOWN_PARAMETER", "The parameter '\(item.name)' is not known here.", parameter: item.name)
                }
                options.filters.append(try parseFilter(filter, item.value))
            }
        }
        if options.groupByDepartment && options.view == .table {
            throw .badRequest("INVALID_GROUP", "Sections and the table view cannot be combined.", parameter: "group")
        }
        return options
    }

    /// 1...200 in plain decimal digits: `0`, `-1`, `201`, `1e3`, `abc` and empty are refused
    /// (SQLite would read `LIMIT -1` as "all rows").
    static func parseLimit(_ text: String) throws(HTTPError) -> Int {
        guard !text.isEmpty, text.utf8.count <= 3, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = Int(text), (1...maxLimit).contains(value)
        else {
            throw .badRequest("INVALID_LIMIT", "limit must be a whole number from 1 to \(maxLimit).", parameter: "limit")
        }
        return value
    }

    /// `-price,name`: fields from the collection's sortable list, `-` for descending, each once.
    static func parseSort(_ text: String, for collection: StoredCollection) throws(HTTPError) -> [SortKey] {
        var keys: [SortKey] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let descending = part.hasPrefix("-")
            let field = String(descending ? part.dropFirst() : part)
            guard collection.sortableFields.contains(field) else {
                let shown = field.isEmpty ? "an empty field" : "'\(field.prefix(64))'"
                throw .badRequest(
                    "INVALID_SORT",
                    "Cannot sort \(collection.rawValue) by \(shown); sortable: \(collection.sortableFields.joined(separator: ", ")).",
                    parameter: "sort")
            }
            guard !keys.contains(where: { $0.field == field }) else {
                throw .badRequest("INVALID_SORT", "sort names '\(field)' twice.", parameter: "sort")
            }
            keys.append(SortKey(field, descending: descending))
        }
        return keys
    }

    static func parseFilter(_ filter: CollectionDescriptor.Filter, _ value: String) throws(HTTPError) -> ListFilter {
        switch filter.kind {
        case .entityID(let kind):
            guard let id = EntityID(parsing: value, kind: kind) else {
                throw .badRequest("INVALID_FILTER", "\(filter.name) must be an id of the form \(kind.rawValue)_….", parameter: filter.name)
            }
            return .department(id)
        case .minorUnits:
            guard !value.isEmpty, value.utf8.count <= 15, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let amount = Int64(value) else {
                throw .badRequest("INVALID_FILTER", "\(filter.name) must be a whole number of minor units (0 to 10^15).", parameter: filter.name)
            }
            return filter.name == "minPrice" ? .minPrice(amount) : .maxPrice(amount)
        }
    }
}
