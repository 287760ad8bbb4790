import Domain
import HTTPServer
import Storage

/// Creates (`POST`, JSON), changes (`PATCH`, JSON merge patch) and deletes, validated by the
/// collection's definition (`ItemDocument`): a 422 lists every failing field by JSON pointer.
extension CatalogItemsController {
    /// Where a write lands: a top-level collection, or a child collection under one parent item
    /// (whose path names the parent, so the body leaves the parent field out).
    struct WriteTarget: Sendable {
        let collection: ServedCollection
        let parent: EntityID?
        /// The parent's collection, with `parent`.
        var owner: ServedCollection? = nil
    }

    func create(_ request: Request) async throws -> Response {
        let collection = try served.collection(request)
        try authorizeWrite(request, collection)
        return try await create(request, into: WriteTarget(collection: collection, parent: nil))
    }

    func update(_ request: Request) async throws -> Response {
        let collection = try served.collection(request)
        try authorizeWrite(request, collection)
        return try await update(request, WriteTarget(collection: collection, parent: nil), id: try Self.id(request.parameter("id"), of: collection))
    }

    func delete(_ request: Request) async throws -> Response {
        let collection = try served.collection(request)
        try authorizeWrite(request, collection)
        return try await delete(WriteTarget(collection: collection, parent: nil), id: try Self.id(request.parameter("id"), of: collection), request)
    }

    /// `POST /v1/<parent>/{id}/<child>`: 404 when the parent item does not exist.
    func childCreate(_ request: Request) async throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeWrite(request, child, under: owner)
        let parent = try Self.id(request.parameter("id"), of: owner)
        _ = try load(owner, parent)
        return try await create(request, into: WriteTarget(collection: child, parent: parent, owner: owner))
    }

    func childUpdate(_ request: Request) async throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeWrite(request, child, under: owner)
        let target = WriteTarget(collection: child, parent: try Self.id(request.parameter("id"), of: owner), owner: owner)
        return try await update(request, target, id: try Self.id(request.parameter("childID"), of: child))
    }

    func childDelete(_ request: Request) async throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeWrite(request, child, under: owner)
        let target = WriteTarget(collection: child, parent: try Self.id(request.parameter("id"), of: owner), owner: owner)
        return try await delete(target, id: try Self.id(request.parameter("childID"), of: child), request)
    }

    private func create(_ request: Request, into target: WriteTarget) async throws -> Response {
        let recover: IdempotentWrites.Recovery = { id in try self.recovered(target, itemID: id, request, status: 201) }
        return try await idempotency.run(request, recover: recover) { mark in
            let item = try checkedCreate(try RequestBody.parse(request, accepting: RequestBody.json), into: target)
            let saved = try await store.insert(item, into: target.collection.name, by: request.principal?.id, idempotency: mark)
            return try created(saved, in: target, context: request.renderContext)
        }
    }

    /// The new item a create's document makes, its id assigned: every rule checked (a 422 lists
    /// each failing field), nothing written.
    func checkedCreate(_ document: JSONValue, into target: WriteTarget) throws -> Item {
        let collection = target.collection
        let id = EntityID.generate(kind: collection.definition.kind)
        return try validated(
            ItemDocument.decode(document, in: collection.definition, catalog: served.catalog, mode: .create(id), parent: target.parent))
    }

    /// The answer to a create once written: 201, the detail, `Location`.
    func created(_ saved: Versioned<Item>, in target: WriteTarget, context: RenderContext) throws -> Response {
        var response = detailResponse(
            saved.item, collection: target.collection, related: try related(saved, in: target.collection), context: context, status: 201)
        response.headers.set("Location", CatalogLinks.detail(target.collection, saved.item.id, parent: target.parent))
        return response
    }

    /// The answer to a patch once written: 200, the new detail.
    func updated(_ saved: Versioned<Item>, in collection: ServedCollection, context: RenderContext) throws -> Response {
        detailResponse(saved.item, collection: collection, related: try related(saved, in: collection), context: context)
    }

    /// The answer to a retried write whose item was written but whose answer was never stored
    /// (`IdempotentWrites`): the item as it is now.
    private func recovered(_ target: WriteTarget, itemID: String, _ request: Request, status: Int) throws -> Response {
        let id = try Self.id(itemID, of: target.collection)
        let current = try load(target, id)
        var response = detailResponse(
            current.item, collection: target.collection, related: try related(current, in: target.collection), context: request.renderContext,
            status: status)
        if status == 201 { response.headers.set("Location", CatalogLinks.detail(target.collection, id, parent: target.parent)) }
        return response
    }

    /// The item `id` of the target; 404 when it is under another parent than the path's.
    func load(_ target: WriteTarget, _ id: EntityID) throws -> Versioned<Item> {
        let item = try load(target.collection, id)
        if let parent = target.parent, let owner = target.owner, target.collection.parentID(of: item.item) != parent {
            throw Self.underAnotherParent(owner, target.collection)
        }
        return item
    }

    private func update(_ request: Request, _ target: WriteTarget, id: EntityID) async throws -> Response {
        let recover: IdempotentWrites.Recovery = { id in try self.recovered(target, itemID: id, request, status: 200) }
        return try await idempotency.run(request, recover: recover) { mark in try await update(request, target, id: id, idempotency: mark) }
    }

    private func update(_ request: Request, _ target: WriteTarget, id: EntityID, idempotency mark: IdempotencyMark?) async throws -> Response {
        let patch = try RequestBody.parse(request, accepting: RequestBody.mergePatch)
        let precondition = EntityTag.parseIfMatch(request.headers["If-Match"])
        let context = request.renderContext
        let store = store
        for _ in 0..<Self.patchAttempts {
            switch try plannedPatch(patch, to: id, in: target, precondition: precondition, context: context) {
            case .unchanged(let response):
                return response
            case .write(let item, let ifVersion):
                let saved: Versioned<Item>
                do {
                    saved = try await store.update(
                        item, in: target.collection.name, ifVersion: ifVersion, by: request.principal?.id, idempotency: mark)
                } catch .versionMismatch where Self.retriesOnChange(precondition) {
                    // Another write landed since the item was read: apply the patch to that one.
                    continue
                } catch {
                    // Swift 6.3.1 crashes (SIL ownership) on a typed catch left non-exhaustive here.
                    throw error
                }
                return try updated(saved, in: target.collection, context: context)
            }
        }
        throw Self.keptChanging
    }

    static let keptChanging = HTTPError(status: 409, code: "CONFLICT", detail: "The item kept changing while the patch was applied; send it again.")

    /// Whether a patch that met another write is applied again to the item as it is then: when
    /// its client named no version (`If-Match` absent or `*`).
    static func retriesOnChange(_ precondition: EntityTag.Precondition?) -> Bool {
        precondition == nil || precondition == .any
    }

    /// What a merge patch comes to on the item as it is now.
    enum PlannedPatch {
        /// The patch changes nothing: nothing is written, and the answer is the current detail.
        case unchanged(Response)
        /// The item to write, while its version is still `ifVersion`.
        case write(Item, ifVersion: Int64)
    }

    /// Reads the item, checks `If-Match`, applies the patch and every rule of the definition
    /// (a 422 lists each failing field); writes nothing.
    func plannedPatch(
        _ patch: JSONValue, to id: EntityID, in target: WriteTarget, precondition: EntityTag.Precondition?, context: RenderContext
    ) throws -> PlannedPatch {
        let collection = target.collection
        let current = try load(target, id)
        let related = try related(current, in: collection)
        try Self.check(precondition, version: related.version)
        let writable = ItemDocument.writable(current.item, in: collection.definition, underParent: target.parent != nil)
        // `"typo": null` would vanish in the merge and pass unnoticed: refuse it here.
        let unknown = Self.unknownRemovals(patch, in: writable, at: "")
        if !unknown.isEmpty { throw HTTPError.validationFailed(unknown) }
        let document = MergePatch.apply(patch, to: writable)
        let item = try validated(
            ItemDocument.decode(document, in: collection.definition, catalog: served.catalog, mode: .replace(current.item), parent: target.parent))
        if item == current.item {
            return .unchanged(detailResponse(current.item, collection: collection, related: related, context: context))
        }
        return .write(item, ifVersion: current.version)
    }

    private func delete(_ target: WriteTarget, id: EntityID, _ request: Request) async throws -> Response {
        let recover: IdempotentWrites.Recovery = { _ in Response.empty(status: 204) }
        return try await idempotency.run(request, recover: recover) { mark in try await delete(target, id: id, request, idempotency: mark) }
    }

    private func delete(_ target: WriteTarget, id: EntityID, _ request: Request, idempotency mark: IdempotencyMark?) async throws -> Response {
        let ifVersion = try plannedDelete(id, in: target, precondition: EntityTag.parseIfMatch(request.headers["If-Match"]))
        try await store.delete(id, from: target.collection.name, ifVersion: ifVersion, by: request.principal?.id, idempotency: mark)
        return Response.empty(status: 204)
    }

    /// Checks a delete's `If-Match` (and, under a parent, that the item is that parent's: a
    /// PATCH cannot move it to another); returns the version the store must still find (nil:
    /// any), which it checks again in the deleting transaction, so nothing slips in between.
    func plannedDelete(_ id: EntityID, in target: WriteTarget, precondition: EntityTag.Precondition?) throws -> Int64? {
        guard precondition != nil || target.parent != nil else { return nil }
        let current = try load(target, id)
        guard let precondition else { return nil }
        try Self.check(precondition, version: try related(current, in: target.collection).version)
        return precondition == .any ? nil : current.version
    }

    /// The item when the document passed every rule and names only existing items; else a 422
    /// listing every failure.
    func validated(_ outcome: ItemDocument.Outcome) throws -> Item {
        var errors = outcome.problems.map { HTTPError.FieldError(pointer: $0.pointer, detail: $0.detail) }
        for reference in outcome.references {
            let found = try store.item(reference.collection, id: reference.id)
            if found == nil {
                errors.append(.init(pointer: reference.pointer, detail: "No item of \(reference.collection) has the id \(reference.id.rawValue)."))
            }
        }
        guard errors.isEmpty, let item = outcome.item else { throw HTTPError.validationFailed(errors) }
        return item
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

    /// 412 unless `If-Match` is absent, `*`, or names `version` (the representation version).
    static func check(_ precondition: EntityTag.Precondition?, version: Int64) throws {
        guard case .versions(let versions)? = precondition, !versions.contains(version) else { return }
        throw StoreError.versionMismatch(current: version)
    }
}
