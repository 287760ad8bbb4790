extension Product: RowRepresentable {
    /// The product's list row: name, short description, and the price in the context's locale.
    ///
    /// No image: the seed's product row has none. The long description is left to the detail.
    public func row(in context: RenderContext) -> RenderRow {
        RenderRow(id: id, title: name, subtitle: shortDescription, trailing: context.currency(price))
    }
}
