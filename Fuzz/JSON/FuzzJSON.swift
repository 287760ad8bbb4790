import Foundation
import FuzzSupport

@testable import APIServer
@testable import Domain

/// Request bodies: the strict JSON parser and exact integers from number literals.
///
/// Invariants: the UTF-8 check agrees with Swift's own validating decoder and reports the first
/// bad byte; every error offset lies inside the body; an accepted document has unique keys,
/// nests at most `maxDepth`, is accepted by Foundation too, and survives render → parse
/// unchanged; an integer read from a literal is exactly the literal's value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = FuzzInput(data, count).bytes.map { $0 }
    let invalidOffset = UTF8Validation.firstInvalidOffset(bytes)
    fuzzCheck((invalidOffset == nil) == (String(validating: bytes, as: UTF8.self) != nil), "UTF-8 check disagrees with Swift")
    if let invalidOffset {
        fuzzCheck(String(validating: bytes[..<invalidOffset], as: UTF8.self) != nil, "bytes before the reported offset are not valid")
    }
    let value: JSONValue
    do throws(JSONParseError) {
        value = try JSONParser.parse(bytes)
    } catch {
        fuzzCheck(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside the body")
        if case .invalidUTF8 = error.kind { fuzzCheck(error.offset == invalidOffset, "invalidUTF8 at another offset") }
        return 0
    }
    fuzzCheck(invalidOffset == nil, "accepted ill-formed UTF-8")
    fuzzCheck(JSONText.hasUniqueKeys(value), "accepted a duplicate key")
    fuzzCheck(JSONText.depth(value) <= JSONParser.maxDepth, "accepted nesting deeper than maxDepth")
    fuzzCheck(
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil,
        "accepted a document Foundation refuses")
    let rendered = JSONText.render(value)
    do throws(JSONParseError) {
        let again = try JSONParser.parse(Array(rendered.utf8))
        fuzzCheck(again == value, "render → parse changed the document: \(rendered)")
    } catch {
        fuzzCheck(false, "its own rendering does not parse: \(error.detail) in \(rendered)")
    }
    checkNumbers(value)
    return 0
}

private func checkNumbers(_ value: JSONValue) {
    switch value {
    case .number(let number):
        fuzzCheck(number.double.isFinite, "a number that is not finite: \(number.text)")
        let plainInteger = number.text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || JSONParser.isDigit($0) }
        if plainInteger { fuzzCheck(number.int64 == Int64(number.text), "int64 of \(number.text) is \(String(describing: number.int64))") }
        // An exact integer value rounds to the same Double as the literal that denotes it.
        if let integer = number.int64 { fuzzCheck(Double(integer) == number.double, "int64 \(integer) is not the value of \(number.text)") }
    case .array(let elements): elements.forEach(checkNumbers)
    case .object(let members): members.forEach { checkNumbers($0.value) }
    default: break
    }
}
