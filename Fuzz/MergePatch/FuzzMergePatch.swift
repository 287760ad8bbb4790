import Domain
import FuzzSupport

@testable import APIServer

/// JSON merge patch (RFC 7396) on parsed documents.
///
/// A body that is an array of two values is `[target, patch]`; anything else is a patch for a
/// fixed product document. Invariants: a non-object patch replaces the target; otherwise
/// members the patch sets to null are gone, the others hold the patch merged into the old
/// value, untouched members keep their values and order, keys stay unique; the result renders
/// as JSON that parses back to itself; applying the same patch twice changes nothing more.
private let product = JSONValue.object([
    JSONMember("id", .string("prd_0000000000000000")),
    JSONMember("name", .string("Keyboard")),
    JSONMember("price", .object([JSONMember("minorUnits", .integer(12_000)), JSONMember("currency", .string("EUR"))])),
    JSONMember("tags", .array([.string("a"), .null])),
])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMergePatch(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput(data, count).bytes.map { $0 }
    guard let body = try? JSONParser.parse(bytes) else { return 0 }
    let (target, patch): (JSONValue, JSONValue)
    if case .array(let pair) = body, pair.count == 2 { (target, patch) = (pair[0], pair[1]) } else { (target, patch) = (product, body) }
    let result = MergePatch.apply(patch, to: target)
    checkMerge(result, patch: patch, target: target)
    fuzzCheck(MergePatch.apply(patch, to: result) == result, "applying the patch twice changed the result")
    fuzzCheck(JSONText.hasUniqueKeys(result), "the result repeats a key")
    let rendered = JSONText.render(result)
    fuzzCheck((try? JSONParser.parse(Array(rendered.utf8))) == result, "the result is not valid JSON that parses back: \(rendered)")
    return 0
}

private func checkMerge(_ result: JSONValue, patch: JSONValue, target: JSONValue) {
    guard case .object(let patchMembers) = patch else {
        fuzzCheck(result == patch, "a non-object patch did not replace the target")
        return
    }
    guard case .object(let resultMembers) = result else {
        fuzzCheck(false, "an object patch gave \(result.typeName)")
        return
    }
    let targetMembers: [JSONMember]
    if case .object(let members) = target { targetMembers = members } else { targetMembers = [] }
    for member in patchMembers {
        if member.value == .null {
            fuzzCheck(result[member.key] == nil, "\(member.key) set to null is still there")
        } else {
            let expected = MergePatch.apply(member.value, to: target[member.key] ?? .null)
            fuzzCheck(result[member.key] == expected, "\(member.key) is not the patch merged into the old value")
        }
    }
    let untouched = targetMembers.filter { member in !patchMembers.contains { $0.key == member.key } }
    let kept = resultMembers.filter { member in untouched.contains { $0.key == member.key } }
    fuzzCheck(kept == untouched, "members the patch does not name changed or moved")
    let removed = patchMembers.filter { $0.value == .null }.count
    fuzzCheck(resultMembers.count <= targetMembers.count + patchMembers.count - removed, "the result has extra members")
}
