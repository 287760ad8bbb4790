import Domain
import Testing

@testable import Definitions

@Suite("Garbage definitions")
struct GarbageDefinitionTests {
    /// SplitMix64: a fixed seed makes the same documents on every run.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    }

    static let pieces = [
        "{", "}", "[", "]", ":", ",", "-", "- ", "&a ", "*a", "!!str ", "? ", "|", ">", "'", "\"", "#", "\t", "\n", "  ", "~", "null", "true",
        "99999999999999999999999", "-0", "1e400", ".nan", "0x1F", "1_000", "{x}", "{{", "}}", "é", "日本", "\u{0}", "\u{FEFF}", "<<: *a",
        "type: enum", "type: reference", "to: nowhere", "template: \"{", "preview: x", "parent: trackID", "forEach: levels", "%YAML 1.1\n", "---\n",
        "...\n",
    ]

    /// Mutations of the demo: cut, repeated, swapped and garbled lines, inserted YAML syntax.
    static func mutated(_ text: String, _ random: inout Generator) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<(1 + random.below(4)) {
            guard !lines.isEmpty else { break }
            let index = random.below(lines.count)
            switch random.below(7) {
            case 0: lines.remove(at: index)
            case 1: lines.insert(lines[random.below(lines.count)], at: index)
            case 2: lines.swapAt(index, random.below(lines.count))
            case 3:
                var line = Array(lines[index])
                line.insert(contentsOf: pieces[random.below(pieces.count)], at: random.below(line.count + 1))
                lines[index] = String(line)
            case 4:
                let line = Array(lines[index])
                let start = random.below(line.count + 1)
                lines[index] = String(line[..<start]) + String(line[min(line.count, start + random.below(8))...])
            case 5: lines[index] = String(repeating: " ", count: random.below(12)) + lines[index].drop { $0 == " " }
            default: lines = Array(lines.prefix(index))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func random(_ random: inout Generator) -> String {
        (0..<random.below(60)).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    static let nasty = [
        "", " ", "\n\n", "---", "~", "[]", "{}", "42", "\"rowserver\"", "rowserver: 1", "rowserver: 1\ncollections:", "rowserver: 1\ncollections: []",
        "rowserver: 99999999999999999999999\ncollections: 1", "rowserver: -1\ncollections: {a: 1}", "rowserver: 1\ncollections: {a: [], b: ~, c: {}}",
        "? [a, b]\n: c", "? {a: b}\n: c\nrowserver: 1", "1: 2\n3: 4", "rowserver: 1\ncollections: {1: {}, true: {}, ~: {}}",
        "a: &x {b: *x}", "a: *undefined", "a: &x [1]\nb: [*x, *x, *x]", String(repeating: "[", count: 100_000), String(repeating: "{a: ", count: 50_000),
        String(repeating: "- ", count: 20_000) + "x", "rowserver: 1\n---\nrowserver: 1", "\u{0}\u{1}\u{2}", "rowserver: 1\ncollections:\n  a:\n    fields: *f",
        "rowserver: 1\ncollections: &c\n  a:\n    idPrefix: aaa\n    title: A\n    fields: {n: {type: text}}\n    row: {title: n}\n  b: *c",
    ]

    @Test func neverCrashAndAlwaysReportAPlace() {
        var random = Generator(state: 0x5EED)
        var documents = Self.nasty
        for index in 0..<400 {
            documents.append(index % 5 == 4 ? Self.random(&random) : Self.mutated(DemoDefinition.text, &random))
        }
        var loaded = 0
        for document in documents {
            do {
                let catalog = try DefinitionLoader.load(text: document, file: "garbage.yaml")
                #expect(!catalog.collections.isEmpty)
                loaded += 1
            } catch {
                #expect(!error.errors.isEmpty)
                for problem in error.errors {
                    #expect(problem.line >= 1 && problem.column >= 1, "\(problem)")
                    #expect(!problem.code.isEmpty && !problem.message.isEmpty)
                }
            }
        }
        #expect(loaded < documents.count)
    }
}
