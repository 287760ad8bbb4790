import Domain

/// `POST …/batch` of a writable collection: its operation and its request and results schemas.
extension OpenAPIBuilder {
    static func batchSchemaName(_ collection: CollectionDefinition) -> String { typeName(collection) + "Batch" }
    static func batchResultsSchemaName(_ collection: CollectionDefinition) -> String { typeName(collection) + "BatchResults" }

    /// A child's batch names its parent in the path, which can be missing (404 for the batch).
    func batchOperation(_ collection: CollectionDefinition, pathParameters: [YAMLNode]) -> YAMLNode {
        let answered = Self.answer(
            "Every operation's result, in order. Atomic: all were written. Otherwise each has its own status, its problem when it failed.",
            headers: ["X-Request-ID", "Idempotent-Replayed"], json: Self.ref(Self.batchResultsSchemaName(collection)))
        return [
            "tags": ["items"],
            "operationId": .string("batch\(Self.typeName(collection))Items"),
            "summary": .string(
                "Create, patch and delete up to \(BatchRequest.maximumOperations) items of \(collection.name) in one request: all or none "
                    + "(`atomic`), or each on its own."),
            "description": .string(
                "Each operation is checked and answered as its single route would (POST, PATCH with a merge patch, DELETE; `ifMatch` as "
                    + "If-Match). An atomic batch that fails answers the failing operation's problem, its `errors` pointing under "
                    + "`/operations/{index}`, and writes nothing. Operations name distinct items (400 DUPLICATE_ID)."),
            "parameters": .list(pathParameters + [Self.ref("AcceptLanguage", "parameters"), Self.ref("IdempotencyKey", "parameters")]),
            "requestBody": ["required": true, "content": ["application/json": ["schema": Self.ref(Self.batchSchemaName(collection))]]],
            "responses": Self.responseMap([("200", answered)], problems: [400, 404, 409, 412, 413, 415, 422]),
        ]
    }

    func batchSchemas(_ collection: CollectionDefinition) -> [(String, YAMLNode)] {
        let id: YAMLNode = ["type": "string", "pattern": .string(Self.idPattern(collection.kind))]
        let ifMatch: YAMLNode = ["type": "string", "description": "The item's ETag, as If-Match takes it: 412 when the item changed since."]
        let operation = { (name: String, members: [(String, YAMLNode)], required: [String]) -> YAMLNode in
            Self.object([("op", ["type": "string", "enum": [.string(name)]])] + members, required: ["op"] + required)
        }
        let operations: YAMLNode = [
            "type": "array", "minItems": 1, "maxItems": .int(BatchRequest.maximumOperations),
            "items": [
                "oneOf": [
                    operation("create", [("item", Self.ref(Self.inputSchemaName(collection)))], ["item"]),
                    operation("patch", [("id", id), ("patch", Self.ref(Self.patchSchemaName(collection))), ("ifMatch", ifMatch)], ["id", "patch"]),
                    operation("delete", [("id", id), ("ifMatch", ifMatch)], ["id"]),
                ]
            ],
        ]
        let request = Self.object(
            [
                ("atomic", ["type": "boolean", "default": false, "description": "All or none: one transaction; the first failure writes nothing."]),
                ("operations", operations),
            ], required: ["operations"])
        let result = Self.object(
            [
                ("status", ["type": "integer", "description": "What the single route answers: 201, 200, 204, or the problem's status."]),
                ("etag", ["type": "string", "description": "The written item's ETag (the detail's, as its route sends it)."]),
                ("location", ["type": "string", "description": "A created item's detail path."]),
                ("item", Self.ref(Self.detailSchemaName(collection))),
                ("problem", Self.ref("Problem")),
            ], required: ["status"])
        let results = Self.object([("atomic", ["type": "boolean"]), ("results", ["type": "array", "items": result])])
        return [(Self.batchSchemaName(collection), request), (Self.batchResultsSchemaName(collection), results)]
    }
}
