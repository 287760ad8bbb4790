import Domain

/// The deterministic demo data generator: same seed, same data, same ids.
///
/// Every collection starts with the seed documents' examples (product Keyboard / Mechanical /
/// 120 USD; Sales with Juan Chavez and Mei Chen; Engineering with Bill James and Anne Johnson)
/// and continues with seeded random data. Each collection draws from its own random stream,
/// so changing the number of products does not change the people. Ids are time-ordered like
/// server ids: the timestamp is ``baseMilliseconds`` plus the entity's index within its kind
/// (so ids are unique by construction), the random bits come from the seeded stream.
public struct DemoData: Sendable {
    /// 2026-01-01T00:00:00Z, the creation time of the first entity of every kind.
    public static let baseMilliseconds: Int64 = 1_767_225_600_000

    /// How much data ``dataset(volume:)`` makes.
    public struct Volume: Hashable, Sendable {
        public var products: Int
        public var departments: Int
        public var people: Int
        public var articles: Int
        public var documents: Int
        public var tracks: Int
        /// Samples per track.
        public var samples: Int

        public init(products: Int, departments: Int, people: Int, articles: Int, documents: Int, tracks: Int, samples: Int) {
            self.products = products
            self.departments = departments
            self.people = people
            self.articles = articles
            self.documents = documents
            self.tracks = tracks
            self.samples = samples
        }

        /// 1,000 products, 200 people in 8 departments, 300 articles and documents, 3 tracks of 500 samples.
        public static let standard = Volume(
            products: 1_000,
            departments: 8,
            people: 200,
            articles: 300,
            documents: 300,
            tracks: 3,
            samples: 500
        )
    }

    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// All collections at `volume`; the seed examples are included whenever the counts allow.
    public func dataset(volume: Volume = .standard) -> DemoDataset {
        let departments = makeDepartments(count: volume.departments)
        let tracks = makeTracks(count: volume.tracks)
        return DemoDataset(
            products: Array(products(count: volume.products)),
            departments: departments,
            people: makePeople(count: volume.people, departments: departments),
            articles: makeArticles(count: volume.articles),
            documents: makeDocuments(count: volume.documents),
            tracks: tracks,
            samples: makeSamples(perTrack: volume.samples, tracks: tracks)
        )
    }

    /// What a new database is filled with when serving (`rowserver serve`, tests): seed 1 at the
    /// standard volume, as items of `catalog` (`CatalogStore.Options.seedItems`).
    public static func standardItems(in catalog: Catalog) -> [(collection: CollectionDefinition, item: Item)] {
        DemoData(seed: 1).dataset().items(in: catalog)
    }

    /// `count` products, generated lazily one at a time; the first is the seed's Keyboard.
    ///
    /// Nothing is built up front, so benchmarks can stream a million products through storage
    /// without holding them all. The first `n` products equal `dataset().products` prefix.
    public func products(count: Int) -> ProductStream {
        ProductStream(seed: seed, count: count)
    }

    /// Stream numbers that keep the collections' random sequences independent.
    enum Stream: UInt64 {
        case products = 1
        case departments, people, articles, documents, tracks, samples
    }

    func random(_ stream: Stream) -> SeededRandom {
        SeededRandom(seed: seed, stream: stream.rawValue)
    }

    static func id(_ kind: EntityKind, index: Int, using random: inout SeededRandom) -> EntityID {
        EntityID.generate(kind: kind, at: baseMilliseconds + Int64(index), using: &random)
    }
}
