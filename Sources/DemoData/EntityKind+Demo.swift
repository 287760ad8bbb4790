import Domain

/// The demo's kinds, as `definitions/demo.yaml` declares their prefixes; the typed demo models
/// and their generator stamp their ids with them.
extension EntityKind {
    public static let product = demo("prd")
    public static let department = demo("dep")
    public static let person = demo("per")
    public static let article = demo("art")
    public static let document = demo("doc")
    public static let track = demo("trk")
    public static let sample = demo("smp")
    public static let channel = demo("chn")

    /// The demo's kinds, in the order the typed models list them.
    public static let demoKinds: [EntityKind] = [.product, .department, .person, .article, .document, .track, .sample, .channel]

    /// The kind of a prefix written here, three lowercase letters by construction.
    private static func demo(_ prefix: String) -> EntityKind {
        guard let kind = EntityKind(prefix: prefix) else { preconditionFailure("bad demo prefix \(prefix)") }
        return kind
    }
}
