import Testing

/// A definition with a mistake, and where and how the loader must report its first error.
struct BadDefinition: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var code: String
    var line: Int
    var column: Int
    /// A piece of the message: it names the thing or says what to do.
    var fragment: String

    var testDescription: String { name }

    init(_ name: String, _ yaml: String, _ code: String, _ line: Int, _ column: Int, _ fragment: String) {
        self.name = name
        self.yaml = yaml
        self.code = code
        self.line = line
        self.column = column
        self.fragment = fragment
    }

    /// A valid one-collection definition with `fields`, `row` and `extra` lines spliced in
    /// (each indented as a collection key). Its line 7 is the first field; the first field is
    /// `name: {type: text}` unless `fields` replaces it.
    static func notes(fields: String = "      name: {type: text}", row: String = "    row: {title: name}", extra: String = "") -> String {
        """
        rowserver: 1
        collections:
          notes:
            idPrefix: not
            title: Notes
            fields:
        \(fields)
        \(row)
        """ + (extra.isEmpty ? "" : "\n" + extra)
    }
}
