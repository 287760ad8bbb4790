/// One row of a ``RenderTable``: preformatted cell text keyed by column id, plus a compact summary.
///
/// Every column of the table has a cell in every row (constant shape); a value that cannot be
/// shown is ``unavailable`` rather than a missing key.
public struct TableRow: Identifiable, Hashable, Sendable, Codable {
    /// Cell text for a value that cannot be computed or is missing (an em dash).
    public static let unavailable = "\u{2014}"

    public var id: EntityID
    public var cells: [String: String]
    public var compact: CompactSummary

    public init(id: EntityID, cells: [String: String], compact: CompactSummary) {
        self.id = id
        self.cells = cells
        self.compact = compact
    }
}
