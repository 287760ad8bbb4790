import Domain
import HTTPServer

/// Strong entity tags (RFC 9110 §8.8.3) and the conditional headers that carry them.
///
/// A detail's tag names the item's version (the change-log sequence of its last write) and the
/// locale its formatted values are in: `"v42.en-US"`. Every locale variant of one version is
/// the same state, so `If-Match` compares versions only: a client may send the tag it got in
/// any locale. List tags are opaque digests (`"l…"`) of everything that shapes the bytes.
public enum EntityTag {
    /// The tag of an item's detail.
    public static func detail(version: Int64, locale: RenderLocale) -> String {
        // Bytes, not interpolation: every uncached detail makes one.
        var bytes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "v")]
        bytes.reserveCapacity(32)
        JSONWriter.appendDecimal(version, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: locale.rawValue.utf8)
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What an `If-Match` header asks for.
    public enum Precondition: Equatable, Sendable {
        /// `*`: the item must exist.
        case any
        /// One of these versions.
        case versions([Int64])
    }

    /// Parses `If-Match`; nil when the header is absent. Tags that are not ours (weak tags,
    /// list tags, garbage) match no version, so a write with only those is refused with 412.
    public static func parseIfMatch(_ header: String?) -> Precondition? {
        guard let header else { return nil }
        let trimmed = header.trimmingASCIIWhitespace()
        if trimmed == "*" { return .any }
        var versions: [Int64] = []
        for part in trimmed.split(separator: ",") {
            if let version = detailVersion(part.trimmingASCIIWhitespace()) { versions.append(version) }
        }
        return .versions(versions)
    }

    /// True when `If-None-Match` names `current` (or is `*`): answer 304.
    /// Weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
    ///
    /// Runs on every revalidation, so it compares bytes in place: the usual header is exactly
    /// the tag the client was given, and a list of tags allocates nothing either.
    public static func noneMatchHits(_ header: String?, current: String) -> Bool {
        guard let header else { return false }
        if header == current { return true }
        let whitespace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        for part in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
            var tag = part.drop(while: whitespace)
            while let last = tag.last, whitespace(last) { tag = tag.dropLast() }
            if tag.elementsEqual("*".utf8) { return true }
            if tag.starts(with: "W/".utf8) { tag = tag.dropFirst(2) }
            if tag.elementsEqual(current.utf8) { return true }
        }
        return false
    }

    /// The version in a detail tag `"v<digits>.<locale>"`, or nil.
    static func detailVersion(_ tag: String) -> Int64? {
        guard tag.hasPrefix("\"v"), tag.hasSuffix("\""), tag.utf8.count > 3 else { return nil }
        let inner = tag.dropFirst(2).dropLast()
        let digits = inner.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 18, inner.dropFirst(digits.count).first == "." else { return nil }
        return Int64(digits)
    }
}
