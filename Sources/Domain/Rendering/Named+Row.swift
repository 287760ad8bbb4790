extension Named where Self: Identifiable, ID == EntityID {
    /// The seed's `NamedRow`: the name, and the details line when there is one.
    ///
    /// Nothing trailing and no image, exactly like the seed's generic row.
    public var namedRow: RenderRow {
        RenderRow(id: id, title: name, subtitle: details)
    }
}

extension Article: RowRepresentable {
    public func row(in context: RenderContext) -> RenderRow { namedRow }
}

extension Document: RowRepresentable {
    public func row(in context: RenderContext) -> RenderRow { namedRow }
}
