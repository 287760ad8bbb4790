/// What `{filters}` stands for in a filtered list's empty state: the filters a request gave,
/// as a person reads them.
///
/// Each filter is its field's label and its values as rows show them: `Status: Open`; `oneOf`
/// joins its values with the locale's "or" (`Status: Open or Pending`); `atLeast` and `atMost`
/// read `Priority ≥ 2` and `Priority ≤ 2` (signs every locale reads, where words would need a
/// grammar per language). The filters are joined with the locale's "and", in the order the
/// request gave them: `Status: Open and Priority ≤ 2`, `Status: Offen und Priorität ≤ 2`.
public enum FilterSummary {
    /// `filters` in `context`'s locale; a reference shows the title `referenceTitle` finds for
    /// its id, else the id.
    public static func text(
        _ filters: [FieldCondition], of collection: CollectionDefinition, in context: RenderContext,
        referenceTitle: (EntityID) -> String? = { _ in nil }
    ) -> String {
        let formatter = FieldFormatter(context: context)
        let locale = context.locale
        let parts = filters.compactMap { entry -> String? in
            guard collection.fields.indices.contains(entry.field) else { return nil }
            let field = collection.fields[entry.field]
            let values = entry.values.map { value in
                var title: String?
                if case .reference(let id) = value { title = referenceTitle(id) }
                return formatter.format(value, as: field.type, referenceTitle: title) ?? ""
            }
            let label = field.label[locale]
            let shown = ListJoining.or.join(values, in: locale)
            switch entry.operation {
            case .equals, .oneOf: return label + labelSeparator(locale) + shown
            case .atLeast: return label + " \u{2265} " + shown
            case .atMost: return label + " \u{2264} " + shown
            }
        }
        return ListJoining.and.join(parts, in: locale)
    }

    /// Between a label and its value: French sets a space before the colon, Japanese writes a full-width one.
    private static func labelSeparator(_ locale: RenderLocale) -> String {
        switch locale {
        case .frFR: " : "
        case .jaJP: "\u{FF1A}"
        default: ": "
        }
    }
}
