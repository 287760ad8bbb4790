import Domain
import Testing

@testable import APIServer

@Suite("JSON parse errors as problems", .runsOnce("no store"))
struct JSONParseErrorHTTPTests {
    @Test func errorsBecomeProblemCodes() {
        let cases: [(JSONParseError.Kind, String)] = [
            (.malformed, "MALFORMED_JSON"), (.invalidUTF8, "INVALID_UTF8"), (.tooDeep, "JSON_TOO_DEEP"),
            (.duplicateKey(pointer: "/a"), "DUPLICATE_KEY"),
        ]
        for (kind, code) in cases {
            let error = JSONParseError(kind, offset: 0, detail: "x").httpError
            #expect(error.status == 400)
            #expect(error.code == code)
        }
    }
}
