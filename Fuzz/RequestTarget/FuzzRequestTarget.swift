import Foundation
import FuzzSupport

@testable import HTTPServer

/// The raw request target: path segments and query parameters from the bytes on the wire.
///
/// Invariants: an accepted path has exactly one segment per literal `/` (an encoded slash stays
/// inside its segment); no segment is a dot segment or holds a control character; each segment
/// and query component equals Foundation's percent-decoding of its raw text; re-encoding the
/// result and parsing it again gives the same segments and query; a refusal is a 400 naming
/// the path or the query.
private let slash = UInt8(ascii: "/")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestTarget(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput(data, count).bytes.map { $0 }
    // libmicrohttpd hands over a C string, which Swift repairs into valid UTF-8.
    let raw = String(decoding: bytes, as: UTF8.self)
    let target: RequestTarget
    do throws(HTTPError) {
        target = try RequestTarget.parse(raw)
    } catch {
        fuzzCheck(error.status == 400 && ["INVALID_PATH", "INVALID_QUERY"].contains(error.code), "refused with \(error.status) \(error.code)")
        return 0
    }
    if target.path == "*" {
        fuzzCheck(raw == "*" && target.segments == ["*"] && target.query.isEmpty, "'*' for \(raw.debugDescription)")
        return 0
    }
    // Worked out on bytes, as the parser does: `Character`s would merge "/" or "?" with a
    // combining mark that follows.
    let rawBytes = Array(raw.utf8)
    var originForm = rawBytes[...]
    for scheme in ["http://", "https://"]
    where rawBytes.count >= scheme.utf8.count && String(decoding: rawBytes.prefix(scheme.utf8.count), as: UTF8.self).lowercased() == scheme {
        let authorityEnd = rawBytes[scheme.utf8.count...].firstIndex(of: slash)
        originForm = authorityEnd.map { rawBytes[$0...] } ?? [slash]
    }
    let pathEnd = originForm.firstIndex(of: UInt8(ascii: "?")) ?? originForm.endIndex
    let rawPath = originForm[..<pathEnd]
    let rawQuery = pathEnd < originForm.endIndex ? originForm[(pathEnd + 1)...] : []
    fuzzCheck(Array(target.path.utf8) == Array(rawPath), "path \(target.path.debugDescription) is not the raw one")
    let rawSegments = rawPath.split(separator: slash, omittingEmptySubsequences: false).dropFirst()
    let expectedCount = target.path == "/" ? 0 : rawSegments.count
    fuzzCheck(target.segments.count == expectedCount, "\(target.segments.count) segments for \(target.path.debugDescription)")
    for (segment, rawSegment) in zip(target.segments, rawSegments) {
        fuzzCheck(segment != "." && segment != "..", "dot segment accepted")
        fuzzCheck(!segment.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control character in a segment")
        let foundation = String(decoding: rawSegment, as: UTF8.self).removingPercentEncoding
        fuzzCheck(foundation == segment, "segment \(segment.debugDescription) is \(String(describing: foundation)) to Foundation")
    }
    fuzzCheck(target.query.count <= RequestTarget.maxQueryItems, "\(target.query.count) query items")
    let rawPairs = rawQuery.split(separator: UInt8(ascii: "&"))
    fuzzCheck(rawPairs.count == target.query.count, "\(rawPairs.count) pairs, \(target.query.count) items")
    for (pair, item) in zip(rawPairs, target.query) {
        fuzzCheck(!item.name.utf8.contains(0) && !item.value.utf8.contains(0), "NUL in a query item")
        let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
        let decode = { (text: ArraySlice<UInt8>) in
            String(decoding: text.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self).removingPercentEncoding
        }
        fuzzCheck(decode(pair[..<equals]) == item.name, "query name \(item.name.debugDescription) decoded differently")
        let value = equals < pair.endIndex ? pair[(equals + 1)...] : []
        fuzzCheck(decode(value) == item.value, "query value \(item.value.debugDescription) decoded differently")
    }
    var rendered = "/" + target.segments.map(PercentEncoding.encode).joined(separator: "/")
    if !target.query.isEmpty { rendered += "?" + PercentEncoding.query(target.query.map { ($0.name, $0.value) }) }
    do throws(HTTPError) {
        let again = try RequestTarget.parse(rendered)
        fuzzCheck(again.segments == target.segments && again.query == target.query, "render → parse differs: \(rendered)")
    } catch {
        fuzzCheck(false, "its rendering \(rendered.debugDescription) is refused: \(error.detail)")
    }
    return 0
}
