/// The grams one transaction's added search texts hold that the writer does not know its
/// collection's tables to hold already (`KnownGrams`): the trigrams of titles and subtitles for
/// `SearchGrams`' map.
///
/// Grams are cut as `SearchGrams.grams(of:sizes:)` cuts them (Unicode scalars), but looked up as
/// packed keys first, so a gram already known costs no string.
struct GramBatch {
    let table: CatalogTable
    let known: KnownGrams.Sets
    /// The grams to record, each once, in the order first met.
    private(set) var trigrams: [String] = []
    /// The keys of the grams to record: known once the transaction commits.
    private(set) var recorded = KnownGrams.Sets()
    private var scalars: [Unicode.Scalar] = []

    init(table: CatalogTable, known: KnownGrams.Sets) {
        self.table = table
        self.known = known
    }

    mutating func add(title: String?, subtitle: String?) {
        for text in [title, subtitle] {
            guard let text else { continue }
            load(text)
            Self.each(of: scalars, size: 3) { key, gram in
                if let key, known.trigrams.contains(key) || !recorded.trigrams.insert(key).inserted { return }
                trigrams.append(gram())
            }
        }
    }

    private mutating func load(_ text: String) {
        scalars.removeAll(keepingCapacity: true)
        scalars.append(contentsOf: text.unicodeScalars)
    }

    /// Calls `body` with each gram of `size` of `scalars`: its key (nil when it
    /// has none) and a way to make its string.
    private static func each(of scalars: [Unicode.Scalar], size: Int, _ body: (UInt64?, () -> String) -> Void) {
        guard scalars.count >= size else { return }
        for start in 0...(scalars.count - size) {
            let gram = scalars[start..<(start + size)]
            body(KnownGrams.key(gram)) {
                var text = String.UnicodeScalarView()
                text.append(contentsOf: gram)
                return String(text)
            }
        }
    }
}
