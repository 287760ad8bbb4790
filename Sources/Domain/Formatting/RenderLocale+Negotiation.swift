extension RenderLocale {
    /// The best supported locale for an `Accept-Language` header; en-US when nothing matches.
    ///
    /// The highest `q` wins, ties go to the earlier range. A range matches its exact locale
    /// (`en-GB`), else its language's default (`de` and `de-AT` → de-DE, `en` → en-US,
    /// `fr-CA` → fr-FR); `*` matches the first supported locale not excluded. `q=0` excludes:
    /// `en;q=0` rules out both English locales, `en-GB;q=0` only en-GB. Nil, empty or garbage
    /// input yields the fallback; the work is bounded whatever the header's size.
    public static func negotiate(acceptLanguage header: String?) -> RenderLocale {
        guard let header, !header.isEmpty else { return fallback }
        let ranges = AcceptLanguage(header).ranges
        let excluded = Set(ranges.filter { $0.quality == 0 }.flatMap(excludedLocales))
        var best: (locale: RenderLocale, quality: Int)?
        for range in ranges where range.quality > 0 {
            guard let locale = match(range, excluding: excluded) else { continue }
            if best == nil || range.quality > (best?.quality ?? 0) { best = (locale, range.quality) }
        }
        return best?.locale ?? fallback
    }

    private static func match(_ range: AcceptLanguage.Range, excluding excluded: Set<RenderLocale>) -> RenderLocale? {
        if range.language == "*" { return allCases.first { !excluded.contains($0) } }
        if let region = range.region,
            let exact = allCases.first(where: { $0.language == range.language && $0.region == region }),
            !excluded.contains(exact)
        {
            return exact
        }
        // A bare language (or one with an unsupported region) maps to its first locale: en → en-US.
        if let byLanguage = allCases.first(where: { $0.language == range.language }), !excluded.contains(byLanguage) {
            return byLanguage
        }
        return allCases.first { $0.language == range.language && !excluded.contains($0) }
    }

    private static func excludedLocales(_ range: AcceptLanguage.Range) -> [RenderLocale] {
        if range.language == "*" { return [] }  // "*;q=0" would exclude everything; keep the fallback usable
        if let region = range.region {
            return allCases.filter { $0.language == range.language && $0.region == region }
        }
        return allCases.filter { $0.language == range.language }
    }
}
