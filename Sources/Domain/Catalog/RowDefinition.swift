/// What a collection's list row shows (seed 000's `Named`, seed 001's render state): a title,
/// an optional subtitle and trailing text, and an image hint.
public struct RowDefinition: Sendable, Hashable {
    public let title: ValueSpec
    public let subtitle: ValueSpec?
    public let trailing: ValueSpec?
    public let image: ImageSpec?
    /// What a title shows when its values make a blank one (an optional name left empty); nil:
    /// "Untitled" in the request's language (`ItemRenderer.untitled`).
    public let placeholder: LocalizedText?

    public init(
        title: ValueSpec, subtitle: ValueSpec? = nil, trailing: ValueSpec? = nil, image: ImageSpec? = nil, placeholder: LocalizedText? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.image = image
        self.placeholder = placeholder
    }
}

/// A row's image hint: the same SF Symbols name on every row, or an image field's value.
public enum ImageSpec: Sendable, Hashable {
    case symbol(String)
    case field(Int)
}
