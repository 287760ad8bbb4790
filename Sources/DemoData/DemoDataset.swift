import Domain

/// Every demo collection, generated together by ``DemoData/dataset(volume:)``.
public struct DemoDataset: Hashable, Sendable {
    public var products: [Product]
    public var departments: [Department]
    public var people: [Person]
    public var articles: [Article]
    public var documents: [Document]
    public var tracks: [Track]
    /// The samples of every track, grouped by track in track order, by timestamp within a track.
    public var samples: [AudioSample]

    /// The samples of one track, in timestamp order.
    public func samples(of trackID: EntityID) -> [AudioSample] {
        samples.filter { $0.trackID == trackID }
    }
}
