/// A count with the noun it counts, in English: "1 digit", "2 digits", "0 digits".
///
/// Problem details, definition errors and the OpenAPI document are English whatever
/// `Accept-Language` asks, and their counts come from definitions, where 1 is common (a scale
/// of 1, `minLength: 1`): "at most 1 digits" reads as a mistake of ours.
public enum EnglishCount {
    /// `count` and `noun`, the noun plural unless the count is exactly 1 or -1; `plural` for a
    /// noun that does not take an "s" ("1 entry", "2 entries").
    public static func of(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count.magnitude == 1 ? noun : plural ?? noun + "s")
    }
}
