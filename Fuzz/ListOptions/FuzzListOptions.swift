import Domain
import FuzzSupport
import Storage

@testable import APIServer
@testable import HTTPServer

/// List parameters (limit, sort, view, group, filters, q, cursor) and sort expressions.
///
/// The first byte picks the collection; its top bit switches from a whole query string to a
/// bare `sort` expression. Invariants: accepted options obey every documented bound, render to
/// a query that parses back to equal options, and an accepted sort expression is exactly its
/// keys written out again; a refusal is a 400 that names a parameter the query has.
private let descriptors = CollectionDescriptor.all + [CollectionDescriptor.samples]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListOptions(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let selector = input.byte()
    let descriptor = descriptors[Int(selector & 0x7F) % descriptors.count]
    let bytes = input.rest()
    if selector & 0x80 != 0 {
        checkSort(String(decoding: bytes, as: UTF8.self), descriptor.collection)
        return 0
    }
    guard case .success(let items) = parseQuery(bytes) else { return 0 }
    let options: ListOptions
    do throws(HTTPError) {
        options = try ListOptions.parse(items, for: descriptor)
    } catch {
        fuzzCheck(error.status == 400, "refused with \(error.status)")
        fuzzCheck(items.contains { $0.name == error.parameter }, "\(error.code) names \(String(describing: error.parameter)), not in the query")
        return 0
    }
    checkBounds(options, descriptor)
    let rendered = render(options)
    do throws(HTTPError) {
        let again = try ListOptions.parse(parseQuery(Array(rendered.utf8)).get(), for: descriptor)
        fuzzCheck(again == options, "render → parse differs: \(rendered)")
    } catch {
        fuzzCheck(false, "its rendering \(rendered.debugDescription) is refused: \(error.detail)")
    }
    return 0
}

private func parseQuery(_ bytes: [UInt8]) -> Result<[QueryItem], HTTPError> {
    bytes.withUnsafeBufferPointer { buffer in
        do throws(HTTPError) {
            return .success(try RequestTarget.parseQuery(bytes: buffer))
        } catch {
            return .failure(error)
        }
    }
}

private func checkBounds(_ options: ListOptions, _ descriptor: CollectionDescriptor) {
    fuzzCheck((1...ListOptions.maxLimit).contains(options.limit), "limit \(options.limit)")
    let fields = options.sort.map(\.field)
    fuzzCheck(!fields.isEmpty && Set(fields).count == fields.count, "sort \(fields)")
    fuzzCheck(fields.allSatisfy(descriptor.collection.sortableFields.contains), "unsortable field in \(fields)")
    fuzzCheck(options.view == .rows || descriptor.offersTable, "table view on \(descriptor.collection)")
    fuzzCheck(!options.groupByDepartment || (descriptor.offersSections && options.view == .rows), "sections on \(descriptor.collection)")
    if let search = options.search {
        fuzzCheck(descriptor.offersSearch, "search on \(descriptor.collection)")
        fuzzCheck(!search.isEmpty && search == search.trimmingCharacters(in: .whitespaces), "search \(search.debugDescription)")
        fuzzCheck(search.count <= ListOptions.maxSearchLength, "search of \(search.count) characters")
    }
    if let cursor = options.cursor {
        fuzzCheck(!cursor.isEmpty && cursor.utf8.count <= ListOptions.maxCursorLength, "cursor of \(cursor.utf8.count) bytes")
    }
    let filterNames = options.filters.map(filterName)
    fuzzCheck(Set(filterNames).count == filterNames.count, "a filter twice: \(filterNames)")
    fuzzCheck(filterNames.allSatisfy { name in descriptor.filters.contains { $0.name == name } }, "filters \(filterNames)")
}

private func filterName(_ filter: ListFilter) -> String {
    switch filter {
    case .department: "department"
    case .minPrice: "minPrice"
    case .maxPrice: "maxPrice"
    }
}

private func render(_ options: ListOptions) -> String {
    var items: [(String, String)] = [("limit", String(options.limit)), ("sort", renderSort(options.sort))]
    if options.view != .rows { items.append(("view", options.view.rawValue)) }
    if options.groupByDepartment { items.append(("group", "department")) }
    if let search = options.search { items.append(("q", search)) }
    if let cursor = options.cursor { items.append(("cursor", cursor)) }
    for filter in options.filters {
        switch filter {
        case .department(let id): items.append(("department", id.rawValue))
        case .minPrice(let amount): items.append(("minPrice", String(amount)))
        case .maxPrice(let amount): items.append(("maxPrice", String(amount)))
        }
    }
    return PercentEncoding.query(items)
}

private func renderSort(_ keys: [SortKey]) -> String {
    keys.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")
}

private func checkSort(_ text: String, _ collection: StoredCollection) {
    do throws(HTTPError) {
        let keys = try ListOptions.parseSort(text, for: collection)
        fuzzCheck(renderSort(keys) == text, "sort \(text.debugDescription) parsed as \(keys)")
    } catch {
        fuzzCheck(error.code == "INVALID_SORT" && error.parameter == "sort", "sort refused with \(error.code)")
    }
}
