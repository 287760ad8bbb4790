import Yams

/// One pass over a composed definition: reads every part, reports every mistake it finds (at
/// the node that is wrong), and keeps going, so a file with five mistakes shows all five.
///
/// Checks that depend on something already reported broken (a sort on a field whose type is
/// unknown) are skipped rather than reported again, so each mistake appears once.
struct DefinitionChecker {
    let file: String
    private(set) var errors: [DefinitionError] = []

    init(file: String) {
        self.file = file
    }

    mutating func report(_ code: String, _ message: String, at node: Node?) {
        report(code, message, at: node?.mark)
    }

    mutating func report(_ code: String, _ message: String, at mark: Mark?) {
        errors.append(DefinitionError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, code: code, message: message))
    }

    /// Reports a mistake and gives no value: what a reader answers for the part it refuses.
    mutating func refuse<T>(_ code: String, _ message: String, at node: Node?) -> T? {
        report(code, message, at: node)
        return nil
    }

    /// Gives the errors reported since `start` one code: a default's problems are all
    /// `bad-default`, whichever reader found them.
    mutating func recode(since start: Int, as code: String) {
        for index in errors.indices where index >= start { errors[index].code = code }
    }

    /// The errors in file order, each once (an aliased node checked twice reports once).
    var sortedErrors: [DefinitionError] {
        var seen = Set<DefinitionError>()
        let unique = errors.filter { seen.insert($0).inserted }
        return unique.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.offset) < (rhs.element.line, rhs.element.column, rhs.offset)
        }.map(\.element)
    }
}
