/// One field's value in an ``Item``; which case a field holds follows from its ``FieldType``.
///
/// | type | case |
/// |---|---|
/// | text, longText, markdown, email, phone, image, enum (its value), date (`YYYY-MM-DD`) | `text` |
/// | integer; decimal (scaled by 10^scale); dateTime (Unix milliseconds, UTC) | `integer` |
/// | boolean | `boolean` |
/// | money | `money` |
/// | reference | `reference` |
/// | numbers | `numbers` |
/// | names | `names` |
///
/// An optional field without a value is `null`.
public enum FieldValue: Sendable, Hashable {
    case null
    case text(String)
    case integer(Int64)
    case boolean(Bool)
    case money(Money)
    case reference(EntityID)
    case numbers([Double])
    case names([NamedEntry])

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    public var reference: EntityID? {
        if case .reference(let id) = self { return id }
        return nil
    }

    public var names: [NamedEntry]? {
        if case .names(let names) = self { return names }
        return nil
    }

    public var isNull: Bool { self == .null }
}

/// An entry of a `names` field: a name with a server-assigned id that stays with it, such as
/// a track's channel. Lists aligned with the names (a sample's levels) keep their positions.
public struct NamedEntry: Sendable, Hashable {
    public var id: EntityID
    public var name: String

    public init(id: EntityID, name: String) {
        self.id = id
        self.name = name
    }
}
