/// The kind of entity an ``EntityID`` names; its raw value is the id's three-letter prefix.
///
/// The prefix makes an id self-describing in logs and URLs (`prd_…` can never be mistaken for
/// `per_…`), and lets the API reject an id of the wrong kind before touching storage.
public enum EntityKind: String, CaseIterable, Sendable, Codable {
    case product = "prd"
    case department = "dep"
    case person = "per"
    case article = "art"
    case document = "doc"
    case track = "trk"
    case sample = "smp"
    case channel = "chn"

    /// Finds the kind whose prefix is exactly these three UTF-8 bytes, without building a `String`.
    static func matching(prefix a: UInt8, _ b: UInt8, _ c: UInt8) -> EntityKind? {
        for kind in allCases {
            let p = kind.prefixBytes
            if p.0 == a && p.1 == b && p.2 == c { return kind }
        }
        return nil
    }

    /// The prefix as bytes; all prefixes are three lowercase ASCII letters.
    var prefixBytes: (UInt8, UInt8, UInt8) {
        switch self {
        case .product: (0x70, 0x72, 0x64)  // prd
        case .department: (0x64, 0x65, 0x70)  // dep
        case .person: (0x70, 0x65, 0x72)  // per
        case .article: (0x61, 0x72, 0x74)  // art
        case .document: (0x64, 0x6F, 0x63)  // doc
        case .track: (0x74, 0x72, 0x6B)  // trk
        case .sample: (0x73, 0x6D, 0x70)  // smp
        case .channel: (0x63, 0x68, 0x6E)  // chn
        }
    }
}
