/// How a template shows when some of its placeholders have no value: a placeholder with no value
/// (null, or shown as no text) drops itself and the literal text that joins it to its
/// neighbours, so `"{team} · {priority}"` is `"2"` without a team rather than `" · 2"`.
///
/// For a template `L0 {p1} L1 {p2} … {pn} Ln`, with the placeholders that have a value kept:
/// - between two kept placeholders goes the literal just before the later one, so a dropped
///   placeholder takes the separator before it with it (`"{a}, {b} ({c})"` without `b` is
///   `"A (C)"`; without `c` it is `"A, B"`);
/// - the leading text `L0` belongs to `{p1}` and the trailing text `Ln` to `{pn}`: each shows
///   only when its placeholder does (`"P{priority} · {status}"` without a priority is the status
///   alone, never `"P · Open"` nor `"POpen"`);
/// - with no placeholder kept the template has no value (nil), and the row part or cell shows
///   what it shows for any absent value; a template without placeholders is its text.
///
/// `PlannedRowWriter` writes rows by this same rule straight into the body: the two agree byte
/// for byte (`PlannedRowWriterTests`).
extension Template {
    /// The template filled with `value` of each placeholder's field index (nil or empty: no value).
    public func fill(_ value: (Int) -> String?) -> String? {
        var filled = ""
        // The literal text since the last placeholder: a separator, or the leading text.
        var before = ""
        var placeholders = 0
        var shown = false
        var lastShown = false
        for part in parts {
            switch part {
            case .literal(let literal): before += literal
            case .field(let index):
                let first = placeholders == 0
                placeholders += 1
                lastShown = false
                if let text = value(index), !text.isEmpty {
                    if first || shown { filled += before }
                    filled += text
                    shown = true
                    lastShown = true
                }
                before = ""
            }
        }
        guard placeholders > 0 else { return before }
        guard shown else { return nil }
        if lastShown { filled += before }
        return filled
    }
}
