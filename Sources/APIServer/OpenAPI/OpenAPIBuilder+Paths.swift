import Domain

/// Every path of the document: the operational ones, then per top-level collection its list,
/// change feed and items, each followed by its child collections' lists and items.
extension OpenAPIBuilder {
    func paths() -> YAMLNode {
        var paths = operationalPaths().map { ($0.0, Self.secured($0.1) { _ in false }) }
        for collection in catalog.topLevel {
            paths += topLevelPaths(collection).map { ($0.0, Self.secured($0.1) { $0 != "get" || collection.readsNeedKey }) }
            paths += outlinePaths(collection).map { ($0.0, Self.secured($0.1) { _ in collection.readsNeedKey }) }
            for child in catalog.children(of: collection) {
                let keyOnly = collection.readsNeedKey || child.readsNeedKey
                paths += childPaths(child, of: collection).map { ($0.0, Self.secured($0.1) { $0 != "get" || keyOnly }) }
            }
        }
        return .map(paths)
    }

    /// `/v1/<name>`, `/v1/<name>/changes` and `/v1/<name>/{id}`; writes (and `/batch`) only when writable.
    private func topLevelPaths(_ collection: CollectionDefinition) -> [(String, YAMLNode)] {
        let base = "/v1/\(collection.name)"
        let id = Self.idParameter(collection.kind)
        var list: [(String, YAMLNode)] = [("get", listOperation(collection, pathParameters: []))]
        var item: [(String, YAMLNode)] = [("get", detailOperation(collection, pathParameters: [id]))]
        if collection.writable {
            list.append(("post", createOperation(collection, pathParameters: [])))
            item.append(("patch", updateOperation(collection, pathParameters: [id])))
            item.append(("delete", deleteOperation(collection, pathParameters: [id])))
        }
        let batch: [(String, YAMLNode)] = collection.writable ? [(base + "/batch", ["post": batchOperation(collection, pathParameters: [])])] : []
        let changes = (base + "/changes", YAMLNode.map([("get", changesOperation(collection))]))
        let head: [(String, YAMLNode)] = [(base, .map(list)), changes]
        return head + letterPaths(collection, base: base, []) + batch + [(base + "/{id}", .map(item))]
    }

    /// `…/index`, the letter index, for a collection with a sort by text.
    private func letterPaths(_ collection: CollectionDefinition, base: String, _ pathParameters: [YAMLNode]) -> [(String, YAMLNode)] {
        guard collection.sorts.contains(where: { ListParameters.isText(collection, sort: $0.name) }) else { return [] }
        return [(base + "/index", ["get": lettersOperation(collection, pathParameters: pathParameters)])]
    }

    /// `/v1/<parent>/{<parentField>}/<name>`, its `/changes` and its `/{id}`: a child is only reached through its
    /// parent item, so every operation takes the parent's id first.
    private func childPaths(_ child: CollectionDefinition, of parent: CollectionDefinition) -> [(String, YAMLNode)] {
        guard let link = child.parent, child.fields.indices.contains(link.field) else { return [] }
        let parentField = child.fields[link.field].name
        let parentID = Self.idParameter(parent.kind, name: parentField, description: "The parent's id: an item of \(parent.name).")
        let base = "/v1/\(parent.name)/{\(parentField)}/\(child.name)"
        let id = Self.idParameter(child.kind)
        var list: [(String, YAMLNode)] = [("get", listOperation(child, pathParameters: [parentID]))]
        var item: [(String, YAMLNode)] = [("get", detailOperation(child, pathParameters: [parentID, id]))]
        if child.writable {
            list.append(("post", createOperation(child, pathParameters: [parentID])))
            item.append(("patch", updateOperation(child, pathParameters: [parentID, id])))
            item.append(("delete", deleteOperation(child, pathParameters: [parentID, id])))
        }
        let batch: [(String, YAMLNode)] = child.writable ? [(base + "/batch", ["post": batchOperation(child, pathParameters: [parentID])])] : []
        let changes = (base + "/changes", YAMLNode.map([("get", changesOperation(child, pathParameters: [parentID]))]))
        let head: [(String, YAMLNode)] = [(base, .map(list)), changes]
        return head + letterPaths(child, base: base, [parentID]) + batch + [(base + "/{id}", .map(item))]
    }

    /// An outline's levels: `/v1/<name>/roots` and `/v1/<name>/{id}/children`, each with its `/changes`.
    private func outlinePaths(_ collection: CollectionDefinition) -> [(String, YAMLNode)] {
        guard collection.tree != nil else { return [] }
        let base = "/v1/\(collection.name)"
        let node = Self.idParameter(collection.kind, description: "The node's id: its children are listed.")
        let level = " One level of the outline, with every list feature and its own change feed: a node moved to another parent leaves "
        let roots = [
            (
                "get",
                listOperation(collection, pathParameters: [], level: "Roots", about: level + "the roots' feed (a delete) when it moves under a node.")
            )
        ]
        let children = [
            (
                "get",
                listOperation(
                    collection, pathParameters: [node], level: "Children",
                    about: level + "its old parent's children's feed (a delete) and enters its new parent's (an upsert)."
                )
            )
        ]
        return [
            (base + "/roots", .map(roots)), (base + "/roots/changes", ["get": changesOperation(collection, level: "Roots")]),
            (base + "/{id}/children", .map(children)),
            (base + "/{id}/children/changes", ["get": changesOperation(collection, pathParameters: [node], level: "Children")]),
        ]
    }

    static func idParameter(_ kind: EntityKind, name: String = "id", description: String = "The item's id, as links give it.") -> YAMLNode {
        [
            "name": .string(name), "in": "path", "required": true, "description": .string(description),
            "schema": ["type": "string", "pattern": .string(idPattern(kind))],
        ]
    }
}
