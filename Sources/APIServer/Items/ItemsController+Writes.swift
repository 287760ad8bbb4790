import Domain
import HTTPServer
import Storage

extension ItemsController {
    /// `POST /v1/{collection}`: 201 with `Location`, `ETag` and the new item's detail.
    func create(_ request: Request) async throws(HTTPError) -> Response {
        let collection = try ItemAddress.collection(request)
        let document = try RequestBody.parse(request, accepting: RequestBody.json)
        let id = EntityID.generate(kind: collection.kind)
        let item = try validated(ItemDecoder.decode(document, as: collection, mode: .create(id)))
        let store = store
        let saved = try await StoreError.mappingAsync { () async throws(StoreError) in try await store.insert(item) }
        var response = Self.detailResponse(saved, related: try related(saved.item), context: request.renderContext, status: 201)
        response.headers.set("Location", ListLinks.detail(collection, saved.item.id))
        return response
    }

    /// `PATCH /v1/{collection}/{id}` with a JSON merge patch: 200 with the new detail.
    ///
    /// The patch is applied to the item's writable fields and the result validated as a whole.
    /// A patch that changes nothing writes nothing (the version, and so the ETag, stay).
    func update(_ request: Request) async throws(HTTPError) -> Response {
        let collection = try ItemAddress.collection(request)
        let id = try ItemAddress.id(request.parameter("id"), of: collection.kind)
        let patch = try RequestBody.parse(request, accepting: RequestBody.mergePatch)
        let precondition = EntityTag.parseIfMatch(request.headers["If-Match"])
        let context = request.renderContext
        let store = store
        for _ in 0..<Self.patchAttempts {
            let current = try load(collection, id)
            let related = try related(current.item)
            try Self.check(precondition, version: DetailEncoder.version(of: current, related: related))
            let writable = WritableDocument.json(for: current.item)
            // `"typo": null` would vanish in the merge and pass unnoticed: refuse it here.
            let unknown = Self.unknownRemovals(patch, in: writable, at: "")
            if !unknown.isEmpty { throw HTTPError.validationFailed(unknown) }
            let document = MergePatch.apply(patch, to: writable)
            let item = try validated(ItemDecoder.decode(document, as: collection, mode: .replace(current.item)))
            if item == current.item {
                return Self.detailResponse(current, related: related, context: context)
            }
            let saved: Versioned<StoredItem>
            do {
                saved = try await store.update(item, ifVersion: current.version)
            } catch .versionMismatch where precondition == nil || precondition == .any {
                // Another write landed since `current` was read: apply the patch to that one.
                continue
            } catch {
                throw error.httpError
            }
            return Self.detailResponse(saved, related: try self.related(saved.item), context: context)
        }
        throw HTTPError(status: 409, code: "CONFLICT", detail: "The item kept changing while the patch was applied; send it again.")
    }

    /// Members of a merge patch that remove (`null`) a field the item does not have: a merge
    /// would drop them silently, and a client would never learn of its typo.
    static func unknownRemovals(_ patch: JSONValue, in document: JSONValue, at pointer: String) -> [HTTPError.FieldError] {
        guard case .object(let members) = patch, case .object(let fields) = document else { return [] }
        var failures: [HTTPError.FieldError] = []
        for member in members {
            let path = JSONPointer.appending(pointer, member.key)
            guard let field = fields.first(where: { $0.key == member.key }) else {
                if member.value == .null { failures.append(.init(pointer: path, detail: "Unknown field.")) }
                continue
            }
            failures += unknownRemovals(member.value, in: field.value, at: path)
        }
        return failures
    }

    /// `DELETE /v1/{collection}/{id}`: 204.
    func delete(_ request: Request) async throws(HTTPError) -> Response {
        let collection = try ItemAddress.collection(request)
        let id = try ItemAddress.id(request.parameter("id"), of: collection.kind)
        let precondition = EntityTag.parseIfMatch(request.headers["If-Match"])
        var ifVersion: Int64?
        if let precondition {
            let current = try load(collection, id)
            let related = try related(current.item)
            try Self.check(precondition, version: DetailEncoder.version(of: current, related: related))
            // The store re-checks the version in the deleting transaction: nothing slips in between.
            if precondition != .any { ifVersion = current.version }
        }
        let store = store
        try await StoreError.mappingAsync { () async throws(StoreError) in
            try await store.delete(collection, id: id, ifVersion: ifVersion)
        }
        return Response.empty(status: 204)
    }

    /// The decoded item, after checking that the items it refers to exist; else 422 with every
    /// failing field.
    func validated(_ outcome: ItemDecoder.Outcome) throws(HTTPError) -> StoredItem {
        var errors = outcome.errors
        let store = store
        for reference in outcome.references {
            let found = try StoreError.mapping { () throws(StoreError) in try store.item(reference.collection, id: reference.id) }
            if found == nil {
                errors.append(
                    .init(pointer: reference.pointer, detail: "No \(StoreError.noun(reference.id.kind)) has the id \(reference.id.rawValue)."))
            }
        }
        guard errors.isEmpty, let item = outcome.item else { throw .validationFailed(errors) }
        return item
    }

    /// 412 unless `If-Match` is absent, `*`, or names `version` (the representation version).
    static func check(_ precondition: EntityTag.Precondition?, version: Int64) throws(HTTPError) {
        guard case .versions(let versions)? = precondition, !versions.contains(version) else { return }
        throw StoreError.versionMismatch(current: version).httpError
    }
}
