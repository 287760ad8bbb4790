extension Track: RowRepresentable {
    /// SF Symbol for an audio track.
    public static let image = "waveform"

    /// A track in a list: its title, and its channel names as the subtitle (`Left, Right`).
    ///
    /// Channel names rather than "2 channels" keep the row free of pluralised, translated text.
    public func row(in context: RenderContext) -> RenderRow {
        let names = channels.map(\.name).joined(separator: ", ")
        return RenderRow(id: id, title: title, subtitle: names.isEmpty ? nil : names, image: Self.image)
    }
}
