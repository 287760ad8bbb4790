import Domain
import HTTPServer

/// What a collection's detail writes that depends only on the definition, worked out once: its
/// keys encoded, each embedded reference's title key, and its links as fixed texts around the
/// ids an item supplies, so no detail searches the catalog for the lists that link to it.
struct DetailPlan: Sendable {
    /// One key per field of the definition, in order.
    let fieldKeys: [JSONWriter.Key]
    /// Per field: the embedded reference's key and its target's title key, when it embeds one.
    let embeds: [Embed?]
    /// The links after `self` and `collection`, in the order they are written.
    let links: [Link]

    struct Embed: Sendable {
        let key: JSONWriter.Key
        let titleKey: JSONWriter.Key
        let target: CollectionDefinition
        /// `/v1/<target>/`: the detail link is this and the id.
        let detailPrefix: String
    }

    enum Link: Sendable {
        /// The item a reference field names: `prefix` + its id, or null.
        case reference(key: JSONWriter.Key, slot: Int, prefix: String)
        /// A list under the item or filtered by it: `prefix` + the item's id + `suffix`.
        case around(key: JSONWriter.Key, prefix: String, suffix: String)
    }

    static let id = JSONWriter.Key("id")
    static let links = JSONWriter.Key("links")
    static let selfLink = JSONWriter.Key("self")
    static let collection = JSONWriter.Key("collection")
    static let detail = JSONWriter.Key("detail")

    init(_ definition: CollectionDefinition, catalog: Catalog) {
        fieldKeys = definition.fields.map { JSONWriter.Key($0.name) }
        embeds = definition.fields.map { field in
            guard let key = field.reference?.embed, let target = field.type.referencedCollection.flatMap(catalog.collection(named:)) else {
                return nil
            }
            return Embed(
                key: JSONWriter.Key(key), titleKey: JSONWriter.Key(target.embeddedTitleKey), target: target, detailPrefix: "/v1/\(target.name)/")
        }
        var written = Set(["self", "collection"])
        var links: [Link] = []
        // An outline node's children (a child collection called `children` keeps the name).
        if definition.tree != nil, !catalog.children(of: definition).contains(where: { $0.name == "children" }), written.insert("children").inserted {
            links.append(.around(key: JSONWriter.Key("children"), prefix: "/v1/\(definition.name)/", suffix: "/children"))
        }
        for field in definition.fields {
            guard let name = field.reference?.link, let target = field.type.referencedCollection, let slot = field.slot,
                catalog.collection(named: target) != nil, written.insert(name).inserted
            else { continue }
            links.append(.reference(key: JSONWriter.Key(name), slot: slot, prefix: "/v1/\(target)/"))
        }
        for child in catalog.children(of: definition) where written.insert(child.name).inserted {
            links.append(.around(key: JSONWriter.Key(child.name), prefix: "/v1/\(definition.name)/", suffix: "/\(child.name)"))
            if child.table != nil, written.insert(child.name + "Table").inserted {
                links.append(
                    .around(key: JSONWriter.Key(child.name + "Table"), prefix: "/v1/\(definition.name)/", suffix: "/\(child.name)?view=table"))
            }
        }
        for source in catalog.topLevel where source.name != definition.name {
            let filter = source.filters.first { filter in
                filter.operation == .equals && source.fields[filter.field].type.referencedCollection == definition.name
            }
            guard let filter, written.insert(source.name).inserted else { continue }
            links.append(.around(key: JSONWriter.Key(source.name), prefix: "/v1/\(source.name)?\(ListLinks.percentEncode(filter.name))=", suffix: ""))
        }
        self.links = links
    }
}
