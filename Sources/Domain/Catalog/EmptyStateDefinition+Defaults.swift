/// The empty states a collection shows when its definition gives none: generic, worded like
/// the system's `ContentUnavailableView`, and translated for every supported language.
extension EmptyStateDefinition {
    /// "No Items" / "Items you add appear here." with a tray.
    public static let defaultEmpty = EmptyStateDefinition(
        title: localized(en: "No Items", de: "Keine Einträge", fr: "Aucun élément", ja: "項目はありません"),
        description: localized(
            en: "Items you add appear here.", de: "Einträge, die Sie hinzufügen, erscheinen hier.",
            fr: "Les éléments que vous ajoutez apparaissent ici.", ja: "追加した項目がここに表示されます。"),
        image: "tray")

    /// "No Results for “{query}”" / "Check the spelling or try a new search." with a magnifying
    /// glass (the system's search state); `{query}` stands for the search text.
    public static let defaultSearchEmpty = EmptyStateDefinition(
        title: localized(
            en: "No Results for \u{201C}{query}\u{201D}", de: "Keine Ergebnisse für \u{201E}{query}\u{201C}",
            fr: "Aucun résultat pour « {query} »", ja: "「{query}」の結果はありません"),
        description: localized(
            en: "Check the spelling or try a new search.",
            de: "Überprüfen Sie die Schreibweise oder versuchen Sie es mit einer neuen Suche.",
            fr: "Vérifiez l’orthographe ou lancez une nouvelle recherche.", ja: "スペルを確認するか、別のキーワードで検索してください。"),
        image: "magnifyingglass")

    /// "No Matches" / "No items match {filters}. …" with the filter symbol: filters (not a
    /// search) left nothing of a list that has items; `{filters}` stands for the filters as a
    /// person reads them (`FilterSummary`: "Status: Open and Priority ≤ 2").
    public static let defaultFilteredEmpty = EmptyStateDefinition(
        title: localized(en: "No Matches", de: "Keine Treffer", fr: "Aucune correspondance", ja: "一致する項目なし"),
        description: localized(
            en: "No items match {filters}. Try changing the filters.",
            de: "Keine Einträge entsprechen {filters}. Versuchen Sie es mit anderen Filtern.",
            fr: "Aucun élément ne correspond à {filters}. Essayez d’autres filtres.",
            ja: "{filters}に一致する項目はありません。フィルタを変更してみてください。"),
        image: "line.3.horizontal.decrease.circle")

    private static func localized(en: String, de: String, fr: String, ja: String) -> LocalizedText {
        LocalizedText(entries: [("en", en), ("de", de), ("fr", fr), ("ja", ja)]) ?? LocalizedText(en)
    }
}
