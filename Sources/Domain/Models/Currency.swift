/// An ISO 4217 currency that prices may use, with the number of digits in its minor unit.
///
/// `Money` stores amounts as integer minor units, so the digit count is what turns `12000`
/// into 120.00 USD but 12000 JPY. ``init(code:)`` returning nil is how the API detects an
/// unknown currency. The table holds the active ISO 4217 codes; funds, precious metals and
/// test codes (XAU, XDR, XTS, XXX…) are deliberately absent because nothing is priced in them.
public struct Currency: Hashable, Sendable, Codable {
    /// The three-letter uppercase ISO 4217 code, e.g. `USD`.
    public let code: String
    /// Digits after the decimal point: 2 for USD/EUR/GBP, 0 for JPY, 3 for KWD.
    public let minorUnitDigits: Int

    /// The currency with this ISO code (case-sensitive, uppercase), or nil when it is unknown.
    public init?(code: String) {
        guard let digits = Self.minorUnitDigitsByCode[code] else { return nil }
        self.code = code
        self.minorUnitDigits = digits
    }

    private init(known code: String, digits: Int) {
        self.code = code
        self.minorUnitDigits = digits
    }

    /// Every known currency, ordered by code.
    public static let all: [Currency] =
        minorUnitDigitsByCode
        .map { Currency(known: $0.key, digits: $0.value) }
        .sorted { $0.code < $1.code }

    static let minorUnitDigitsByCode: [String: Int] = {
        var table: [String: Int] = [:]
        for (digits, codes) in ISO4217.codesByMinorUnitDigits {
            for code in codes.split(separator: " ") { table[String(code)] = digits }
        }
        return table
    }()
}
