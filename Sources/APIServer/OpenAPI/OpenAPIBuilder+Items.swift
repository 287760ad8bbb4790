import Domain

/// One item's operations: the detail, and for a writable collection create, merge-patch and delete.
extension OpenAPIBuilder {
    func detailOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        [
            "tags": ["items"],
            "operationId": .string("get\(Self.typeName(collection))Item"),
            "summary": .string("One item of \(collection.name) by id: the full detail."),
            "parameters": .list(pathParameters + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IfNoneMatch", "parameters")]),
            "responses": .map(
                [
                    (
                        "200",
                        [
                            "description": "The detail.",
                            "headers": [
                                "ETag": Self.ref("ETag", "headers"), "Content-Language": Self.ref("ContentLanguage", "headers"),
                                "Vary": Self.ref("Vary", "headers"), "Cache-Control": Self.ref("CacheControl", "headers"),
                                "X-Request-ID": Self.requestID,
                            ],
                            "content": ["application/json": ["schema": Self.ref(Self.detailSchemaName(collection))]],
                        ]
                    ),
                    ("304", Self.ref("NotModified", "responses")),
                ] + Self.problems([404]) + [("default", Self.ref("Problem", "responses"))]),
        ]
    }

    /// A child's create names its parent in the path, which can be missing (404).
    func createOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let created: YAMLNode = [
            "description": "Created. The body is the new item's detail.",
            "headers": [
                "Location": Self.ref("Location", "headers"), "ETag": Self.ref("ETag", "headers"),
                "Content-Language": Self.ref("ContentLanguage", "headers"), "X-Request-ID": Self.requestID,
                "Idempotent-Replayed": Self.ref("IdempotentReplayed", "headers"),
            ],
            "content": ["application/json": ["schema": Self.ref(Self.detailSchemaName(collection))]],
        ]
        let statuses = pathParameters.isEmpty ? [400, 409, 413, 415, 422] : [400, 404, 409, 413, 415, 422]
        return [
            "tags": ["items"],
            "operationId": .string("create\(Self.typeName(collection))Item"),
            "summary": .string("Create an item of \(collection.name); the server assigns its id."),
            "parameters": .list(pathParameters + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IdempotencyKey", "parameters")]),
            "requestBody": ["required": true, "content": ["application/json": ["schema": Self.ref(Self.inputSchemaName(collection))]]],
            "responses": .map([("201", created)] + Self.problems(statuses) + [("default", Self.ref("Problem", "responses"))]),
        ]
    }

    func updateOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let updated: YAMLNode = [
            "description": "Updated. The body is the item's new detail; the id never changes.",
            "headers": [
                "ETag": Self.ref("ETag", "headers"), "Content-Language": Self.ref("ContentLanguage", "headers"),
                "X-Request-ID": Self.requestID, "Idempotent-Replayed": Self.ref("IdempotentReplayed", "headers"),
            ],
            "content": ["application/json": ["schema": Self.ref(Self.detailSchemaName(collection))]],
        ]
        let patch = Self.ref(Self.patchSchemaName(collection))
        return [
            "tags": ["items"],
            "operationId": .string("update\(Self.typeName(collection))Item"),
            "summary": .string("Change an item of \(collection.name) with a JSON merge patch (RFC 7396)."),
            "parameters": .list(
                pathParameters + [
                    Self.ref("IfMatch", "parameters"), Self.ref("AcceptLanguage", "parameters"), Self.ref("IdempotencyKey", "parameters"),
                ]),
            "requestBody": [
                "required": true,
                "content": ["application/merge-patch+json": ["schema": patch], "application/json": ["schema": patch]],
            ],
            "responses": .map(
                [("200", updated)] + Self.problems([400, 404, 409, 412, 413, 415, 422]) + [("default", Self.ref("Problem", "responses"))]),
        ]
    }

    /// 409 for a key in use, and where a `restrict` reference can point at the item.
    func deleteOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        [
            "tags": ["items"],
            "operationId": .string("delete\(Self.typeName(collection))Item"),
            "summary": .string("Delete an item of \(collection.name)."),
            "parameters": .list(pathParameters + [Self.ref("IfMatch", "parameters"), Self.ref("IdempotencyKey", "parameters")]),
            "responses": .map(
                [
                    (
                        "204",
                        [
                            "description": "Deleted.",
                            "headers": ["X-Request-ID": Self.requestID, "Idempotent-Replayed": Self.ref("IdempotentReplayed", "headers")],
                        ]
                    )
                ]
                    + Self.problems([400, 404, 409, 412, 422]) + [("default", Self.ref("Problem", "responses"))]),
        ]
    }
}
