import Foundation
import FuzzSupport
import HTTPServer
import Logging
import Prometheus

@testable import APIServer

/// rowserver's route table, from raw request targets: the first byte picks the method.
///
/// Invariants: the match equals a brute-force one over the registered templates (same
/// length, literals equal, parameters non-empty, a literal beats a parameter at the first
/// position where they differ; HEAD falls back to GET; 405 lists the template's methods
/// that exist for the parameters: no writes to a collection the server keeps);
/// parameters are the segments at the template's parameter positions; a target whose path
/// holds an encoded NUL never reaches the router; an encoded slash never splits a segment.
private let router: Router = {
    // The routes of the demo catalog; matching never calls a handler, so the store is closed at
    // once (an open GRDB pool would be reported by LeakSanitizer when the fuzzer exits).
    let store = DemoCatalog.store()
    let router = Application.makeRouter(
        Application.Dependencies(registry: PrometheusCollectorRegistry(), logger: Logger(label: "fuzz"), store: store))
    try? store?.close()
    return router
}()

/// Template segments and methods, by template.
private let routes: [(template: String, pattern: [Substring], methods: Set<HTTPMethod>)] = {
    var methods: [String: Set<HTTPMethod>] = [:]
    for (method, template) in router.templates { methods[template, default: []].insert(method) }
    return methods.map { (template: $0.key, pattern: $0.key.split(separator: "/"), methods: $0.value) }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let method = HTTPMethod.allCases[Int(input.byte()) % HTTPMethod.allCases.count]
    let raw = String(decoding: input.rest(), as: UTF8.self)
    // Bytes, not `Character`s: a combining mark after "?" or "/" must not hide it.
    let rawPath = Substring(raw.utf8.prefix { $0 != UInt8(ascii: "?") })
    let segments: [String]
    do throws(HTTPError) {
        segments = try RequestTarget.parse(raw).segments
        fuzzCheck(raw.utf8.first != UInt8(ascii: "/") || !rawPath.contains("%00"), "a path with %00 was accepted: \(raw.debugDescription)")
    } catch {
        // Still route what a lenient parser might have produced: decoded segments, NULs included.
        segments = rawPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map {
            let text = String(decoding: $0, as: UTF8.self)
            return text.removingPercentEncoding ?? text
        }
    }
    let match = router.match(method, segments)
    switch (match, expectedMatch(method, segments)) {
    case (.notFound, nil):
        fuzzCheck(router.allowedMethods(segments) == nil, "allowedMethods for an unknown path")
    case (.found(_, let parameters, let template, _), .found(let expectedTemplate, let expectedParameters)?):
        fuzzCheck(template == expectedTemplate, "\(method) \(segments) found \(template), expected \(expectedTemplate)")
        let same = parameters.count == expectedParameters.count && expectedParameters.allSatisfy { parameters[$0.key] == $0.value }
        fuzzCheck(same, "\(method) \(segments) parameters \(parameters), expected \(expectedParameters)")
    case (.methodNotAllowed(let allowed, let template, _), .methodNotAllowed(let expectedTemplate, let expectedAllowed)?):
        fuzzCheck(template == expectedTemplate, "\(method) \(segments) 405 on \(template), expected \(expectedTemplate)")
        fuzzCheck(allowed == expectedAllowed, "\(method) \(segments) allows \(allowed), expected \(expectedAllowed)")
        fuzzCheck(router.allowedMethods(segments) == allowed, "allowedMethods disagrees with the 405")
    case (let actual, let expected):
        fuzzCheck(false, "\(method) \(segments): router says \(actual), brute force says \(String(describing: expected))")
    }
    return 0
}

private enum Expected {
    case found(template: String, parameters: [String: String])
    case methodNotAllowed(template: String, allowed: [String])
}

private func expectedMatch(_ method: HTTPMethod, _ segments: [String]) -> Expected? {
    let candidates = routes.filter { route in
        route.pattern.count == segments.count
            && zip(route.pattern, segments).allSatisfy { part, segment in
                part.hasPrefix(":") ? !segment.isEmpty : part == segment
            }
    }
    let literalMask = { (pattern: [Substring]) in pattern.map { $0.hasPrefix(":") ? 0 : 1 } }
    guard let best = candidates.max(by: { literalMask($0.pattern).lexicographicallyPrecedes(literalMask($1.pattern)) }) else { return nil }
    let template = best.template
    var parameters: [String: String] = [:]
    for (part, segment) in zip(best.pattern, segments) where part.hasPrefix(":") { parameters[String(part.dropFirst())] = segment }
    let methods = best.methods.filter { available($0, parameters) }
    if methods.contains(method) || (method == .HEAD && methods.contains(.GET)) {
        return .found(template: template, parameters: parameters)
    }
    var allowed = methods.union([.OPTIONS])
    if allowed.contains(.GET) { allowed.insert(.HEAD) }
    return .methodNotAllowed(template: template, allowed: HTTPMethod.allCases.filter(allowed.contains).map(\.rawValue))
}

/// Whether a route's method exists for its parameters: writes do not for a collection the
/// server keeps (`writable: false` in the demo definition: a track's samples). Decided here
/// from the catalog, not asked of the router.
private func available(_ method: HTTPMethod, _ parameters: [String: String]) -> Bool {
    guard [.POST, .PUT, .PATCH, .DELETE].contains(method), let name = parameters["collection"],
        var collection = DemoCatalog.catalog.collection(named: name), collection.parent == nil
    else { return true }
    if let child = parameters["child"] {
        guard let found = DemoCatalog.catalog.collection(named: child), found.parent?.collection == collection.name else { return true }
        collection = found
    }
    return collection.writable
}
