import Yams

/// Yams' errors as definition errors: syntax errors and repeated keys at libyaml's position.
enum YAMLErrorMapping {
    static func error(_ error: any Error, text: String, file: String) -> DefinitionError {
        guard let yamlError = error as? YamlError else {
            return DefinitionError(file: file, line: 1, column: 1, code: "yaml-syntax", message: "The file is not valid YAML: \(error).")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text), from line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return DefinitionError(
                file: file, line: mark.line, column: mark.column, code: "yaml-syntax", message: "YAML syntax error: \(problem)\(while_).")
        case .reader(let problem, let offset, _, _):
            let position = offset.map { self.position(ofCharacter: $0, in: text) } ?? (line: 1, column: 1)
            return DefinitionError(
                file: file, line: position.line, column: position.column, code: "yaml-syntax",
                message: "The file cannot be read as YAML: \(problem).")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return DefinitionError(
                file: file, line: context.mark.line, column: context.mark.column, code: "duplicate-key",
                message: "The key \(keys) appears more than once in one mapping; keep one.")
        default:
            return DefinitionError(file: file, line: 1, column: 1, code: "yaml-syntax", message: "The file is not valid YAML: \(yamlError).")
        }
    }

    /// Line and column (in Unicode scalars, as libyaml counts) of the character at `offset`.
    static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for character in text.prefix(max(0, offset)) {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }
}
