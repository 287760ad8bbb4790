import Foundation
import HTTPTestSupport
import Testing

/// `examples/tickets.yaml`'s credit is bounded per currency (USD 5,000.00, EUR 5,000.00,
/// JPY 750,000) and filtered by `minCredit`: over HTTP, in English and in German.
@Suite("Money bounds per currency and money filters over HTTP")
struct MoneyBoundsRouteTests {
    let server: CatalogTestServer
    let agent: String

    init() async throws {
        server = try CatalogTestServer.tickets()
        agent = try await server.create("agents", #"{"name":"Ana Díaz","email":"ana@example.com","team":"billing"}"#)
    }

    static let languages = ["en-US", "de-DE"]

    func ticket(_ minorUnits: Int64, _ currency: String) -> String {
        #"{"subject":"Refund","opened":"2026-11-20","assigneeID":"\#(agent)","credit":{"minorUnits":\#(minorUnits),"currency":"\#(currency)"}}"#
    }

    func post(_ body: String, language: String) async throws -> HTTPResponse {
        try await server.send("POST", "/v1/tickets", json: body, headers: [("Accept-Language", language)])
    }

    /// The one failing field's pointer and detail of a 422.
    static func problem(_ response: HTTPResponse) -> [String] {
        ((response.json?["errors"] as? [[String: Any]]) ?? []).map { "\($0["pointer"] as? String ?? ""): \($0["detail"] as? String ?? "")" }
    }

    @Test(arguments: languages)
    func aCreditOverItsCurrencysMaximumIsA422NamingTheBound(language: String) async throws {
        let euro = try await post(ticket(500_001, "EUR"), language: language)
        #expect(euro.status == 422)
        #expect(euro.problemCode == "VALIDATION_FAILED")
        #expect(Self.problem(euro) == ["/credit/minorUnits: Must be at most €5,000.00 (minorUnits 500000)."])
        let yen = try await post(ticket(750_001, "JPY"), language: language)
        #expect(yen.status == 422)
        #expect(Self.problem(yen) == ["/credit/minorUnits: Must be at most ¥750,000 (minorUnits 750000)."])
        let list = try await server.get("/v1/tickets")
        #expect((list.json?["rows"] as? [Any])?.isEmpty == true, "a refused write stores nothing")
    }

    @Test(arguments: languages)
    func aCreditWithinItsCurrencysMaximumIsWrittenAndShownInTheLanguage(language: String) async throws {
        let euro = try await post(ticket(500_000, "EUR"), language: language)
        #expect(euro.status == 201, "\(euro.text)")
        let formatted = (euro.json?["credit"] as? [String: Any])?["formatted"] as? String
        #expect(formatted == (language == "de-DE" ? "5.000,00\u{00A0}€" : "€5,000.00"))
    }

    /// 750,000 minor units is over EUR's bound but within JPY's: each currency has its own.
    @Test(arguments: languages)
    func anotherCurrencysBoundIsIndependent(language: String) async throws {
        let yen = try await post(ticket(750_000, "JPY"), language: language)
        #expect(yen.status == 201, "\(yen.text)")
        let id = try #require(yen.json?["id"] as? String)
        let dollars = try await post(ticket(500_000, "USD"), language: language)
        #expect(dollars.status == 201, "\(dollars.text)")
        // Changing only the currency holds the amount to the new currency's bound.
        let toEuro = try await server.send(
            "PATCH", "/v1/tickets/\(id)", json: #"{"credit":{"currency":"EUR"}}"#, headers: [("Accept-Language", language)])
        #expect(toEuro.status == 422)
        #expect(Self.problem(toEuro) == ["/credit/minorUnits: Must be at most €5,000.00 (minorUnits 500000)."])
        let stored = try await server.get("/v1/tickets/\(id)", language: language)
        #expect((stored.json?["credit"] as? [String: Any])?["currency"] as? String == "JPY")
    }

    @Test(arguments: languages)
    func aMoneyFilterInACurrencyTheFieldDoesNotAllowIsA400NamingTheAllowedOnes(language: String) async throws {
        #expect(try await post(ticket(2_500, "EUR"), language: language).status == 201)
        let refused = try await server.get("/v1/tickets?minCredit=GBP:10.00", language: language)
        #expect(refused.status == 400)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(refused.problemCode == "INVALID_FILTER")
        #expect(refused.json?["parameter"] as? String == "minCredit")
        #expect(refused.json?["detail"] as? String == "minCredit takes an amount in USD, EUR, JPY (USD:100.00); credit holds no GBP.")
        let unknown = try await server.get("/v1/tickets?minCredit=XYZ:10.00", language: language)
        #expect(unknown.status == 400 && unknown.problemCode == "INVALID_FILTER")
        let kept = try await server.get("/v1/tickets?minCredit=EUR:10.00", language: language)
        #expect(kept.status == 200)
        #expect((kept.json?["rows"] as? [[String: Any]])?.count == 1)
        let none = try await server.get("/v1/tickets?minCredit=EUR:25.01", language: language)
        #expect((none.json?["rows"] as? [[String: Any]])?.isEmpty == true)
    }
}
