import Domain
import Yams

/// `tree: {parent: field}`: an outline of one collection.
extension DefinitionChecker {
    /// The outline's parent reference: a stored, optional reference to the collection itself (a
    /// root has no parent, so a required one would leave no place to start), on a collection that
    /// is not listed under another's items (its children would need a path under two parents).
    mutating func resolveTree(_ node: Node, in scope: CollectionScope) -> TreeDefinition? {
        let what = "`tree` of \(scope.draft.what)"
        guard let object = object(node, what, known: ["parent"], required: ["parent"]), let parentNode = object.value("parent"),
            let name = string(parentNode, "`parent` of \(what.lowercasedFirst)"),
            let index = field(name, at: parentNode, in: scope, code: "bad-tree", "`parent` of \(what.lowercasedFirst)")
        else { return nil }
        let field = scope.fields[index]
        guard let target = field.type?.referencedCollection else {
            if field.type != nil || !field.isStored {
                report("bad-tree", "`parent` of \(what.lowercasedFirst) names `\(name)`, which is not a reference field.", at: parentNode)
            }
            return nil
        }
        guard target == scope.draft.name else {
            return refuse(
                "tree-parent-elsewhere",
                "`parent` of \(what.lowercasedFirst) names `\(name)`, which refers to `\(target)`: an outline's parent is an item of the "
                    + "collection itself (`to: \(scope.draft.name)`). For items listed under another collection's, write `parent: \(name)`.",
                at: parentNode)
        }
        guard !field.rules.required else {
            return refuse(
                "tree-parent-required",
                "`parent` of \(what.lowercasedFirst) names `\(name)`, which is `required: true`: the roots of an outline have no parent, "
                    + "so the field must be optional.", at: parentNode)
        }
        if scope.draft.hasParent {
            return refuse(
                "tree-under-parent",
                "`tree` is declared on \(scope.draft.what), which is listed under its parent (`parent`): an "
                    + "outline is a top-level collection.", at: node)
        }
        return TreeDefinition(field: index)
    }
}
