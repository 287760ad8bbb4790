/// A model that maps to a list row; the API layer's list endpoints are generic over it.
///
/// Mapping is a pure function of the model and the request's ``RenderContext``. Models whose
/// row needs no formatting ignore the context, but take it so every collection maps alike.
public protocol RowRepresentable: Identifiable where ID == EntityID {
    func row(in context: RenderContext) -> RenderRow
}

extension RowRepresentable {
    /// Rows for a page of models, in order, with one context for the whole page.
    public static func rows(_ models: some Sequence<Self>, in context: RenderContext) -> [RenderRow] {
        models.map { $0.row(in: context) }
    }
}
