/// What a list row shows of a model: a title line and an optional detail line.
///
/// From the seed: models opt in with an extension (`extension Article: Named`) rather than a
/// parallel "list DTO", so a field rename cannot leave a shadow model behind.
public protocol Named {
    var name: String { get }
    var details: String? { get }
}

/// A value model a list can show and navigate to by id (the seed's `NamedValue`).
///
/// The seed's `NamedObject` (`ObservableObject`) has no server counterpart: models here are values.
public typealias NamedValue = Identifiable & Named & Hashable
