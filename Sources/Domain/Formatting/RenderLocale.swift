import Foundation

/// A locale the server formats rows for; picked per request from `Accept-Language`.
///
/// A closed set keeps formatting predictable and its cost bounded: every supported locale has
/// its formatters built once and shared (see ``RenderContext``). en-US is the fallback.
public enum RenderLocale: String, CaseIterable, Sendable, Codable {
    case enUS = "en-US"
    case enGB = "en-GB"
    case deDE = "de-DE"
    case frFR = "fr-FR"
    case jaJP = "ja-JP"

    /// The locale used when nothing in the request matches.
    public static let fallback: RenderLocale = .enUS

    /// The position in `allCases`, where per-locale tables (``LocalizedText``) keep this locale's entry.
    public var ordinal: Int {
        switch self {
        case .enUS: 0
        case .enGB: 1
        case .deDE: 2
        case .frFR: 3
        case .jaJP: 4
        }
    }

    /// Foundation's locale for this tag.
    public var foundationLocale: Locale { Locale(identifier: rawValue) }

    /// Primary language subtag, lowercase.
    public var language: String {
        switch self {
        case .enUS, .enGB: "en"
        case .deDE: "de"
        case .frFR: "fr"
        case .jaJP: "ja"
        }
    }

    /// Region subtag, uppercase.
    var region: String {
        switch self {
        case .enUS: "US"
        case .enGB: "GB"
        case .deDE: "DE"
        case .frFR: "FR"
        case .jaJP: "JP"
        }
    }
}
