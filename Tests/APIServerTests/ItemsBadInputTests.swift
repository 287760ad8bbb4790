import Foundation
import HTTPTestSupport
import Storage
import Testing

@Suite("Item routes refuse bad input with its status and code, and write nothing")
struct ItemsBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var method: String
        /// `{product}`, `{person}` and `{department}` stand for the fixture items' paths.
        var target: String
        var contentType: String?
        var body: [UInt8]
        var status: Int
        var code: String
        var pointers: [String] = []

        init(
            _ method: String, _ target: String, _ body: String, contentType: String? = "application/json", _ status: Int, _ code: String,
            _ pointers: [String] = []
        ) {
            self.init(method, target, bytes: Array(body.utf8), contentType: contentType, status, code, pointers)
        }

        init(
            _ method: String, _ target: String, bytes: [UInt8], contentType: String? = "application/json", _ status: Int, _ code: String,
            _ pointers: [String] = []
        ) {
            self.method = method
            self.target = target
            self.contentType = contentType
            self.body = bytes
            self.status = status
            self.code = code
            self.pointers = pointers
        }

        var testDescription: String { "\(method) \(target) \(String(decoding: body.prefix(60), as: UTF8.self)) → \(status) \(code)" }
    }

    static let price = #""price":{"minorUnits":100,"currency":"USD"}"#
    static let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)

    static let cases: [Case] = [
        Case("POST", "/v1/products", #"{"name":"#, 400, "MALFORMED_JSON"),
        Case("POST", "/v1/products", "", 400, "MALFORMED_JSON"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)} trailing"#, 400, "MALFORMED_JSON"),
        Case("POST", "/v1/products", #"{"name":"A","price":{"minorUnits":1e999,"currency":"USD"}}"#, 400, "MALFORMED_JSON"),
        Case("POST", "/v1/products", bytes: Array(#"{"name":""#.utf8) + [0xC3, 0x28] + Array(#"",\#(price)}"#.utf8), 400, "INVALID_UTF8"),
        Case("POST", "/v1/products", #"{"name":\#(deep),\#(price)}"#, 400, "JSON_TOO_DEEP"),
        Case("POST", "/v1/products", #"{"name":"A","name":"B",\#(price)}"#, 400, "DUPLICATE_KEY", ["/name"]),
        Case("POST", "/v1/products", #"{"name":"A","price":{"minorUnits":1,"currency":"USD","currency":"EUR"}}"#, 400, "DUPLICATE_KEY"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)}"#, contentType: nil, 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)}"#, contentType: "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)}"#, contentType: "application/json; charset=iso-8859-1", 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)}"#, contentType: "application/merge-patch+json", 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("POST", "/v1/products", #"{"name":"A",\#(price)}"#, contentType: "application/jsonx", 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("POST", "/v1/products", #"{"name":"  ",\#(price)}"#, 422, "VALIDATION_FAILED", ["/name"]),
        Case("POST", "/v1/products", #"{"name":"\#(String(repeating: "x", count: 201))",\#(price)}"#, 422, "VALIDATION_FAILED", ["/name"]),
        Case("POST", "/v1/products", #"{"name":"A\u0000",\#(price)}"#, 422, "VALIDATION_FAILED", ["/name"]),
        Case("POST", "/v1/products", #"{"name":"A","price":{"minorUnits":-1,"currency":"USD"}}"#, 422, "VALIDATION_FAILED", ["/price/minorUnits"]),
        Case("POST", "/v1/products", #"{"name":"A","price":{"minorUnits":0.5,"currency":"USD"}}"#, 422, "VALIDATION_FAILED", ["/price/minorUnits"]),
        Case(
            "POST", "/v1/products", #"{"name":"A","price":{"minorUnits":9223372036854775808,"currency":"USD"}}"#, 422, "VALIDATION_FAILED",
            ["/price/minorUnits"]),
        Case("POST", "/v1/products", #"{"name":"A","price":{"minorUnits":1,"currency":"ABC"}}"#, 422, "VALIDATION_FAILED", ["/price/currency"]),
        Case("POST", "/v1/products", #"{"name":"A","colour":"red",\#(price)}"#, 422, "VALIDATION_FAILED", ["/colour"]),
        Case("POST", "/v1/products", #"{"name":["A"],\#(price)}"#, 422, "VALIDATION_FAILED", ["/name"]),
        Case("POST", "/v1/products", #"{"id":"prd_0000000000000001","name":"A",\#(price)}"#, 422, "VALIDATION_FAILED", ["/id"]),
        Case(
            "POST", "/v1/people",
            #"{"givenName":"Ada","familyName":"L","emailAddress":"a@b","phoneNumber":"1","departmentID":"dep_0000000000000001"}"#, 422,
            "VALIDATION_FAILED", ["/departmentID"]),
        Case("POST", "/v1/samples", #"{"timestampMilliseconds":1}"#, 404, "NOT_FOUND"),
        Case("POST", "/v1/nope", #"{"name":"A"}"#, 404, "NOT_FOUND"),
        Case("PATCH", "{product}", #"{"name":"#, 400, "MALFORMED_JSON"),
        Case("PATCH", "{product}", #"{"name":"A","name":"B"}"#, 400, "DUPLICATE_KEY"),
        Case("PATCH", "{product}", #"{"price":{"currency":"EUR","currency":"USD"}}"#, 400, "DUPLICATE_KEY", ["/price/currency"]),
        Case("PATCH", "{product}", #"{"name":"B"}"#, contentType: "text/json", 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("PATCH", "{product}", #"{"name":"B"}"#, contentType: nil, 415, "UNSUPPORTED_MEDIA_TYPE"),
        Case("PATCH", "{product}", #"{"name":""}"#, 422, "VALIDATION_FAILED", ["/name"]),
        Case("PATCH", "{product}", #"{"id":"prd_0000000000000001"}"#, 422, "VALIDATION_FAILED", ["/id"]),
        Case("PATCH", "{product}", #"{"price":{"currency":"ABC"}}"#, 422, "VALIDATION_FAILED", ["/price/currency"]),
        Case("PATCH", "{product}", #"{"price":null}"#, 422, "VALIDATION_FAILED", ["/price"]),
        Case("PATCH", "{product}", #"{"links":{"self":"/elsewhere"}}"#, 422, "VALIDATION_FAILED", ["/links"]),
        Case("PATCH", "{product}", #"["name"]"#, 422, "VALIDATION_FAILED", [""]),
        Case("PATCH", "{person}", #"{"departmentID":"dep_0000000000000001"}"#, 422, "VALIDATION_FAILED", ["/departmentID"]),
        Case("PATCH", "{person}", #"{"emailAddress":"nobody","phoneNumber":"x"}"#, 422, "VALIDATION_FAILED", ["/emailAddress", "/phoneNumber"]),
        Case("PATCH", "/v1/products/prd_0000000000000001", #"{"name":"B"}"#, 404, "NOT_FOUND"),
        Case("PATCH", "/v1/products/per_0000000000000001", #"{"name":"B"}"#, 404, "NOT_FOUND"),
        Case("DELETE", "{department}", "", contentType: nil, 409, "CONFLICT"),
        Case("DELETE", "/v1/products/prd_0000000000000001", "", contentType: nil, 404, "NOT_FOUND"),
        Case("DELETE", "/v1/samples/smp_0000000000000001", "", contentType: nil, 404, "NOT_FOUND"),
    ]

    @Test(arguments: cases)
    func badInputGetsItsProblemAndWritesNothing(_ testCase: Case) async throws {
        let server = try ItemsTestServer()
        let product = try await server.create("products", #"{"name":"Lamp",\#(Self.price)}"#)
        let department = try await server.create("departments", #"{"name":"Sales"}"#)
        let departmentID = String(department.split(separator: "/").last ?? "")
        let person = try await server.create(
            "people",
            #"{"givenName":"Ada","familyName":"Lovelace","emailAddress":"ada@example.com","phoneNumber":"1","departmentID":"\#(departmentID)"}"#)
        let fixtures = [product, department, person]
        var before: [[UInt8]] = []
        for path in fixtures { before.append(try await fetch(port: server.port, path).body) }
        let sequence = try server.store.latestSequence()

        let target = testCase.target.replacingOccurrences(of: "{product}", with: product)
            .replacingOccurrences(of: "{person}", with: person).replacingOccurrences(of: "{department}", with: department)
        var headers: [(String, String)] = []
        if let contentType = testCase.contentType { headers.append(("Content-Type", contentType)) }
        let response = try await server.write(testCase.method, target, headers: headers, body: testCase.body)

        #expect(response.status == testCase.status)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.problemCode == testCase.code)
        if !testCase.pointers.isEmpty {
            #expect(response.problemPointers == testCase.pointers)
        }
        #expect(try server.store.latestSequence() == sequence)
        for (path, body) in zip(fixtures, before) {
            #expect(try await fetch(port: server.port, path).body == body)
        }
    }
}
