import Domain
import Storage

/// The URLs the server hands out, so a client never builds one.
enum ListLinks {
    static func detail(_ collection: StoredCollection, _ id: EntityID, parent: EntityID? = nil) -> String {
        if collection == .samples, let parent {
            return "/v1/tracks/\(parent.rawValue)/samples/\(id.rawValue)"
        }
        return "/v1/\(collection.rawValue)/\(id.rawValue)"
    }

    static func list(_ collection: StoredCollection, parent: EntityID? = nil) -> String {
        if collection == .samples, let parent { return "/v1/tracks/\(parent.rawValue)/samples" }
        return "/v1/\(collection.rawValue)"
    }

    /// The list URL for these options: parameters in a fixed order, defaults left out.
    static func list(_ shape: QueryShape, limit: Int, cursor: String? = nil, sort: [SortKey]? = nil) -> String {
        var parameters: [(String, String)] = []
        let sort = sort ?? shape.options.sort
        if sort != shape.collection.defaultSort {
            parameters.append(("sort", sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")))
        }
        for filter in shape.options.filters {
            switch filter {
            case .department(let id): parameters.append(("department", id.rawValue))
            case .minPrice(let value): parameters.append(("minPrice", String(value)))
            case .maxPrice(let value): parameters.append(("maxPrice", String(value)))
            }
        }
        if let search = shape.options.search { parameters.append(("q", search)) }
        if shape.options.groupByDepartment { parameters.append(("group", "department")) }
        if shape.options.view == .table { parameters.append(("view", "table")) }
        if limit != ListOptions.defaultLimit { parameters.append(("limit", String(limit))) }
        if let cursor { parameters.append(("cursor", cursor)) }
        let base = list(shape.collection, parent: shape.parent)
        guard !parameters.isEmpty else { return base }
        return base + "?" + parameters.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return result
    }
}
