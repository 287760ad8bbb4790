import Domain

/// One measurement of a track: a timestamp and a level for each of the track's channels.
///
/// The timestamp is integer milliseconds from the start of the track (the seed's column is
/// "Timestamp (ms)"); integers keep it exact and sortable. Levels are an array aligned with
/// `Track.channels` — `levels[i]` belongs to `channels[i]` — which is compact and needs no
/// hashing. Levels are expected to be finite (JSON cannot carry NaN or infinity).
public struct AudioSample: Identifiable, Hashable, Sendable, Codable {
    public let id: EntityID
    public let trackID: EntityID
    public var timestampMilliseconds: Int64
    public var levels: [Double]

    public init(id: EntityID, trackID: EntityID, timestampMilliseconds: Int64, levels: [Double]) {
        self.id = id
        self.trackID = trackID
        self.timestampMilliseconds = timestampMilliseconds
        self.levels = levels
    }
}
