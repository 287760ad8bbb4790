import Domain

/// One item's operations: the detail, and for a writable collection create, merge-patch and delete.
extension OpenAPIBuilder {
    func detailOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        [
            "tags": ["items"],
            "operationId": .string("get\(Self.typeName(collection))Item"),
            "summary": .string("One item of \(collection.name) by id: the full detail."),
            "parameters": .list(pathParameters + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IfNoneMatch", "parameters")]),
            "responses": Self.responseMap(
                [
                    (
                        "200",
                        Self.answer(
                            "The detail.", headers: ["ETag", "Content-Language", "Vary", "Cache-Control", "X-Request-ID"],
                            json: Self.ref(Self.detailSchemaName(collection)))
                    ),
                    ("304", Self.ref("NotModified", "responses")),
                ], problems: [404]),
        ]
    }

    /// A child's create names its parent in the path, which can be missing (404).
    func createOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let created = Self.answer(
            "Created. The body is the new item's detail.", headers: ["Location", "ETag", "Content-Language", "X-Request-ID", "Idempotent-Replayed"],
            json: Self.ref(Self.detailSchemaName(collection)))
        let statuses = pathParameters.isEmpty ? [400, 409, 413, 415, 422] : [400, 404, 409, 413, 415, 422]
        return [
            "tags": ["items"],
            "operationId": .string("create\(Self.typeName(collection))Item"),
            "summary": .string("Create an item of \(collection.name); the server assigns its id."),
            "parameters": .list(pathParameters + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IdempotencyKey", "parameters")]),
            "requestBody": ["required": true, "content": ["application/json": ["schema": Self.ref(Self.inputSchemaName(collection))]]],
            "responses": Self.responseMap([("201", created)], problems: statuses),
        ]
    }

    func updateOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let updated = Self.answer(
            "Updated. The body is the item's new detail; the id never changes.",
            headers: ["ETag", "Content-Language", "X-Request-ID", "Idempotent-Replayed"],
            json: Self.ref(Self.detailSchemaName(collection)))
        let patch = Self.ref(Self.patchSchemaName(collection))
        var description: [(String, YAMLNode)] = []
        if let tree = collection.tree, collection.fields.indices.contains(tree.field) {
            description.append(
                (
                    "description",
                    .string(
                        "Changing `\(collection.fields[tree.field].name)` moves the node with its subtree. A new parent that is the node itself "
                            + "or one of its descendants is a 422 TREE_CYCLE; one more than 1,000 levels deep a 422 TREE_TOO_DEEP.")
                ))
        }
        return .map(
            [
                ("tags", ["items"]),
                ("operationId", .string("update\(Self.typeName(collection))Item")),
                ("summary", .string("Change an item of \(collection.name) with a JSON merge patch (RFC 7396).")),
            ] + description + [
                (
                    "parameters",
                    .list(
                        pathParameters + [
                            Self.ref("IfMatch", "parameters"), Self.ref("AcceptLanguage", "parameters"), Self.ref("IdempotencyKey", "parameters"),
                        ])
                ),
                (
                    "requestBody",
                    [
                        "required": true,
                        "content": ["application/merge-patch+json": ["schema": patch], "application/json": ["schema": patch]],
                    ]
                ),
                ("responses", Self.responseMap([("200", updated)], problems: [400, 404, 409, 412, 413, 415, 422])),
            ])
    }

    /// 409 for a key in use, and where a `restrict` reference can point at the item.
    func deleteOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        [
            "tags": ["items"],
            "operationId": .string("delete\(Self.typeName(collection))Item"),
            "summary": .string("Delete an item of \(collection.name)."),
            "parameters": .list(pathParameters + [Self.ref("IfMatch", "parameters"), Self.ref("IdempotencyKey", "parameters")]),
            "responses": Self.responseMap(
                [("204", Self.answer("Deleted.", headers: ["X-Request-ID", "Idempotent-Replayed"]))], problems: [400, 404, 409, 412, 422]),
        ]
    }
}
