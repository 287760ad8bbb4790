extension Person: RowRepresentable {
    /// SF Symbol the staff directory shows next to a phone number (the seed's `Label(…, systemImage: "phone")`).
    public static let phoneImage = "phone"

    /// The directory row: full name, then the phone number with the `phone` image.
    ///
    /// The phone number is shown as entered, so the context is unused.
    public func row(in context: RenderContext) -> RenderRow {
        RenderRow(id: id, title: fullName, subtitle: phoneNumber, image: Self.phoneImage)
    }
}
