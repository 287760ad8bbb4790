import Domain
import Testing

/// A template's placeholder with no value drops itself and the literal text that joins it to
/// its neighbours; with none left the template has no value.
@Suite("Templates with missing values")
struct TemplateFillingTests {
    /// `text` as a template whose placeholders are field indexes in order of first appearance.
    static func template(_ text: String) throws -> (Template, [String]) {
        var names: [String] = []
        var parts: [Template.Part] = []
        for part in try Template.split(text).get() {
            switch part {
            case .literal(let literal): parts.append(.literal(literal))
            case .placeholder(let name):
                if !names.contains(name) { names.append(name) }
                parts.append(.field(names.firstIndex(of: name) ?? 0))
            }
        }
        return (Template(parts: parts, text: text), names)
    }

    static let cases: [(template: String, values: [String: String], filled: String?)] = [
        ("{team} · {priority}", ["team": "Alpha", "priority": "2"], "Alpha · 2"),
        ("{team} · {priority}", ["priority": "2"], "2"),
        ("{team} · {priority}", ["team": "Alpha"], "Alpha"),
        ("{team} · {priority}", [:], nil),
        ("{team} · {priority}", ["team": "", "priority": "2"], "2"),
        ("{a}, {b} ({c})", ["a": "A", "c": "C"], "A (C)"),
        ("{a}, {b} ({c})", ["a": "A", "b": "B"], "A, B"),
        ("{a}, {b} ({c})", ["b": "B", "c": "C"], "B (C)"),
        ("{a}, {b} ({c})", ["b": "B"], "B"),
        ("P{priority} · {status}", ["priority": "2", "status": "Open"], "P2 · Open"),
        ("P{priority} · {status}", ["status": "Open"], "Open"),
        ("P{priority} · {status}", ["priority": "2"], "P2"),
        ("Team {team}", ["team": "Alpha"], "Team Alpha"),
        ("Team {team}", [:], nil),
        ("{ms} ms", ["ms": "12"], "12 ms"),
        ("{ms} ms", [:], nil),
        ("{given} {family}", ["family": "Díaz"], "Díaz"),
        ("{a}{b}", ["b": "B"], "B"),
        ("{a} / {b} / {c}", ["a": "A", "c": "C"], "A / C"),
        ("{a} - {b} / {c}", ["a": "A", "c": "C"], "A / C"),
        ("No placeholders", [:], "No placeholders"),
        ("{{literal}} {a}", ["a": "A"], "{literal} A"),
        ("{{literal}} {a}", [:], nil),
    ]

    @Test(arguments: cases)
    func aMissingPlaceholderDropsItsSeparator(template text: String, values: [String: String], filled: String?) throws {
        let (template, names) = try Self.template(text)
        #expect(template.fill { index in values[names[index]] } == filled, "\(text) with \(values)")
    }
}
