/// The products table: name, description, and the seed's tip table's computed price columns.
///
/// Tips are computed in integer minor units, rounded half away from zero
/// (``Money/increased(byPercent:)``): 0.10 USD with 15 % is 0.12 USD. An amount too large to
/// compute shows ``TableRow/unavailable``. Compact: name over base price.
public enum ProductTable {
    public static let name = TableColumn(id: "name", title: "Name", sortable: true)
    public static let shortDescription = TableColumn(id: "shortDescription", title: "Description", sortable: true)
    public static let price = TableColumn(id: "price", title: "Base price", sortable: true, alignment: .numeric)
    public static let tip15 = TableColumn(id: "tip15", title: "With 15% tip", sortable: false, alignment: .numeric)
    public static let tip20 = TableColumn(id: "tip20", title: "With 20% tip", sortable: false, alignment: .numeric)

    public static let columns = [name, shortDescription, price, tip15, tip20]

    public static func row(for product: Product, in context: RenderContext) -> TableRow {
        let base = context.currency(product.price)
        func tipped(_ percent: Int64) -> String {
            product.price.increased(byPercent: percent).map(context.currency) ?? TableRow.unavailable
        }
        return TableRow(
            id: product.id,
            cells: [
                name.id: product.name,
                shortDescription.id: product.shortDescription,
                price.id: base,
                tip15.id: tipped(15),
                tip20.id: tipped(20),
            ],
            compact: CompactSummary(title: product.name, subtitle: base)
        )
    }

    public static func table(_ products: some Sequence<Product>, in context: RenderContext) -> RenderTable {
        RenderTable(columns: columns, rows: products.map { row(for: $0, in: context) })
    }
}
