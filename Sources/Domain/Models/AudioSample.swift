/// One measurement of a track: a timestamp and a level for each of the track's channels.
///
/// The timestamp is integer milliseconds from the start of the track (the seed's column is
/// "Timestamp (ms)"); integers keep it exact and sortable. Levels are an array aligned with
/// `Track.channels` — `levels[i]` belongs to `channels[i]` — which is compact and needs no
/// hashing; ``level(at:)`` returns nil for a channel the sample has no level for. Levels are
/// expected to be finite (JSON cannot carry NaN or infinity).
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

    /// The level of the channel at `index` in the track's channel list, if the sample has one.
    public func level(at index: Int) -> Double? {
        levels.indices.contains(index) ? levels[index] : nil
    }

    /// The level of `channel` in `track`, if the channel belongs to the track and has a level.
    public func level(of channel: AudioChannel.ID, in track: Track) -> Double? {
        guard let index = track.channels.firstIndex(where: { $0.id == channel }) else { return nil }
        return level(at: index)
    }
}
