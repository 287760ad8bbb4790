import Domain
import FuzzSupport
import Storage

@testable import APIServer
@testable import HTTPServer

/// A list's query parameters, for every demo collection: the first byte picks the collection
/// (and, with its top bit, fuzzes `sort=` alone).
///
/// Invariants: a refusal is a 400 naming a parameter of the query; what is accepted stays
/// within the definition (limit bounds, declared sorts once each, a table or sections only
/// where declared and never both, search only where searchable and trimmed, declared filters
/// once each); rendering the parameters and parsing them again gives the same parameters.
private let collections = DemoCatalog.catalog.collections

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzListOptions(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let selector = input.byte()
    let collection = collections[Int(selector & 0x7F) % collections.count]
    let bytes = input.rest()
    if selector & 0x80 != 0 {
        checkSort(String(decoding: bytes, as: UTF8.self), collection)
        return 0
    }
    guard case .success(let items) = parseQuery(bytes) else { return 0 }
    let parameters: ListParameters
    do throws(HTTPError) {
        parameters = try ListParameters.parse(items, for: collection, catalog: DemoCatalog.catalog)
    } catch {
        fuzzCheck(error.status == 400, "refused with \(error.status)")
        fuzzCheck(items.contains { $0.name == error.parameter }, "\(error.code) names \(String(describing: error.parameter)), not in the query")
        return 0
    }
    checkBounds(parameters, collection)
    let rendered = render(parameters, collection)
    do throws(HTTPError) {
        let again = try ListParameters.parse(parseQuery(Array(rendered.utf8)).get(), for: collection, catalog: DemoCatalog.catalog)
        fuzzCheck(again == parameters, "render → parse differs: \(rendered)")
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

private func checkBounds(_ parameters: ListParameters, _ collection: CollectionDefinition) {
    fuzzCheck((1...collection.limits.maxLimit).contains(parameters.limit), "limit \(parameters.limit)")
    let fields = parameters.sort.map(\.field)
    fuzzCheck(!fields.isEmpty && Set(fields).count == fields.count, "sort \(fields)")
    fuzzCheck(fields.allSatisfy { collection.sort(named: $0) != nil }, "undeclared sort in \(fields)")
    fuzzCheck(parameters.view == .rows || collection.table != nil, "table view on \(collection.name)")
    fuzzCheck(!parameters.sections || (collection.sections != nil && parameters.view == .rows), "sections on \(collection.name)")
    if let search = parameters.search {
        fuzzCheck(collection.isSearchable, "search on \(collection.name)")
        fuzzCheck(!search.isEmpty && search == search.trimmingCharacters(in: .whitespaces), "search \(search.debugDescription)")
        fuzzCheck(search.count <= ListParameters.maxSearchLength, "search of \(search.count) characters")
    }
    if let cursor = parameters.cursor {
        fuzzCheck(!cursor.isEmpty && cursor.utf8.count <= ListParameters.maxCursorLength, "cursor of \(cursor.utf8.count) bytes")
    }
    let names = parameters.filters.map(\.name)
    fuzzCheck(Set(names).count == names.count, "a filter twice: \(names)")
    for filter in parameters.filters {
        guard let declared = collection.filter(named: filter.name) else {
            fuzzCheck(false, "undeclared filter \(filter.name)")
            continue
        }
        fuzzCheck(filter.condition.field == declared.field && filter.condition.operation == declared.operation, "filter \(filter.name)")
        fuzzCheck(
            !filter.condition.values.isEmpty && (declared.operation == .oneOf || filter.condition.values.count == 1), "values of \(filter.name)")
    }
}

private func render(_ parameters: ListParameters, _ collection: CollectionDefinition) -> String {
    var items: [(String, String)] = [("limit", String(parameters.limit)), ("sort", renderSort(parameters.sort))]
    if parameters.view != .rows { items.append(("view", parameters.view.rawValue)) }
    if parameters.sections, let sections = collection.sections { items.append(("group", sections.name)) }
    if let search = parameters.search { items.append(("q", search)) }
    if let cursor = parameters.cursor { items.append(("cursor", cursor)) }
    for filter in parameters.filters { items.append((filter.name, filter.text)) }
    return PercentEncoding.query(items)
}

private func renderSort(_ keys: [SortKey]) -> String {
    keys.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")
}

private func checkSort(_ text: String, _ collection: CollectionDefinition) {
    do throws(HTTPError) {
        let keys = try ListParameters.parseSort(text, for: collection)
        fuzzCheck(renderSort(keys) == text, "sort \(text.debugDescription) parsed as \(keys)")
    } catch {
        fuzzCheck(error.code == "INVALID_SORT" && error.parameter == "sort", "sort refused with \(error.code)")
    }
}
