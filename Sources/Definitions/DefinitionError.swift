/// One mistake in a definition file, at the line and column of the node that is wrong (for a
/// missing key, the mapping that lacks it).
///
/// `code` is stable per kind of mistake (`unknown-key`, `sort-on-missing-field`), like Django's
/// `admin.E108`, so tests and tools can match it while the message stays free to improve.
public struct DefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// From 1.
    public var line: Int
    /// From 1, in Unicode scalars (as libyaml counts).
    public var column: Int
    public var code: String
    /// Names the thing, the problem, and what to do.
    public var message: String

    public init(file: String, line: Int, column: Int, code: String, message: String) {
        self.file = file
        self.line = max(1, line)
        self.column = max(1, column)
        self.code = code
        self.message = message
    }

    /// `file:line:column: message [code]`, the form compilers use, so editors can jump to it.
    public var description: String { "\(file):\(line):\(column): \(message) [\(code)]" }
}

/// Every mistake found in one pass over a definition, in file order.
public struct DefinitionErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [DefinitionError]

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
