import Domain

/// What the second pass knows while it resolves one collection: its fields, the specs of its
/// computed fields once resolved, and every collection by name (for references and labels).
struct CollectionScope {
    let draft: CollectionDraft
    let collections: [String: CollectionDraft]
    /// The resolved spec of each computed field, by field index.
    var computed: [Int: ValueSpec] = [:]

    var fields: [FieldDraft] { draft.fields }

    func index(of name: String) -> Int? { draft.fieldIndex[name] }

    /// The stored fields a value reads: a computed field reads those of its template or preview.
    func reads(_ spec: ValueSpec) -> [Int] {
        spec.fields.flatMap { index in
            guard fields.indices.contains(index), !fields[index].isStored else { return [index] }
            return computed[index]?.fields ?? []
        }
    }

    /// Whether a value reads a reference field, directly or through a template.
    func readsReference(_ spec: ValueSpec) -> Bool {
        reads(spec).contains { fields.indices.contains($0) && fields[$0].type?.referencedCollection != nil }
    }
}
