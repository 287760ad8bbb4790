/// The samples table of one track, with columns decided at runtime (the seed's `TableColumnForEach`).
///
/// Columns: "Timestamp (ms)", then one numeric column per channel of the track, in channel
/// order, whose id is the channel's id and whose title is its name. Timestamps are integer
/// milliseconds with the locale's grouping; levels have exactly 2 fraction digits. A sample
/// without a level for a channel shows ``TableRow/unavailable``. Compact: the timestamp in ms
/// over `name level` pairs.
public struct SampleTable: Sendable {
    public static let timestamp = TableColumn(id: "timestamp", title: "Timestamp (ms)", sortable: true, alignment: .numeric)
    /// Fraction digits of a level, as in the seed's `.precision(.fractionLength(2))`.
    public static let levelFractionDigits = 2

    public let track: Track
    public let columns: [TableColumn]

    public init(track: Track) {
        self.track = track
        columns =
            [Self.timestamp]
            + track.channels.map { channel in
                TableColumn(id: channel.id.rawValue, title: channel.name, sortable: false, alignment: .numeric)
            }
    }

    public func row(for sample: AudioSample, in context: RenderContext) -> TableRow {
        let time = context.integer(sample.timestampMilliseconds)
        var cells = [String: String](minimumCapacity: columns.count)
        cells[Self.timestamp.id] = time
        var summary = ""
        summary.reserveCapacity(track.channels.count * 16)
        for (index, column) in columns.dropFirst().enumerated() {
            let level = sample.level(at: index).map { context.decimal($0, fractionDigits: Self.levelFractionDigits) } ?? TableRow.unavailable
            cells[column.id] = level
            if !summary.isEmpty { summary += ", " }
            summary += column.title
            summary += " "
            summary += level
        }
        return TableRow(
            id: sample.id,
            cells: cells,
            compact: CompactSummary(title: time + " ms", subtitle: summary.isEmpty ? nil : summary)
        )
    }

    public func table(_ samples: some Sequence<AudioSample>, in context: RenderContext) -> RenderTable {
        RenderTable(columns: columns, rows: samples.map { row(for: $0, in: context) })
    }
}
