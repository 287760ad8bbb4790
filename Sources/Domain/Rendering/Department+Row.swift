extension Department: RowRepresentable {
    /// SF Symbol for a department in a list of departments.
    public static let image = "building.2"

    /// A department in a plain list (in the staff directory it is a section header instead).
    public func row(in context: RenderContext) -> RenderRow {
        RenderRow(id: id, title: name, image: Self.image)
    }
}
