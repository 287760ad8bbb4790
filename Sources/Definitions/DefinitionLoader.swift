import Domain
import Foundation
import Yams

/// Reads a definition file (YAML, or JSON, which libyaml reads too), checks all of it, and
/// resolves it into a ``Catalog``; or throws every mistake found, each with its line and column.
public enum DefinitionLoader {
    /// Larger files are refused before parsing: a definition is a few kilobytes, and the cap
    /// bounds the nesting depth the parser's recursion can meet.
    static let maximumBytes = 1 << 20

    public static func load(text: String, file: String) throws(DefinitionErrors) -> Catalog {
        try onLargeStack { check(text: text, file: file) }.get()
    }

    /// An unreadable file is one error at 1:1.
    public static func load(path: String) throws(DefinitionErrors) -> Catalog {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read as UTF-8 text" : "does not exist"
            throw DefinitionErrors(errors: [
                DefinitionError(file: path, line: 1, column: 1, code: "unreadable-file", message: "The definition file \(reason).")
            ])
        }
        return try load(text: text, file: path)
    }

    /// The embedded demo (`definitions/demo.yaml`).
    public static func demo() throws(DefinitionErrors) -> Catalog {
        try load(text: DemoDefinition.text, file: DemoDefinition.fileName)
    }

    private static func check(text: String, file: String) -> Result<Catalog, DefinitionErrors> {
        func failure(_ code: String, _ message: String, _ line: Int = 1, _ column: Int = 1) -> Result<Catalog, DefinitionErrors> {
            .failure(DefinitionErrors(errors: [DefinitionError(file: file, line: line, column: column, code: code, message: message)]))
        }
        guard text.utf8.count <= maximumBytes else {
            return failure("file-too-large", "The definition is larger than \(maximumBytes / 1024) KiB; a definition is a few kilobytes.")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            return .failure(DefinitionErrors(errors: [YAMLErrorMapping.error(error, text: text, file: file)]))
        }
        guard let root else {
            return failure("empty-document", "The definition is empty: start it with `rowserver: 1` and `collections:`.")
        }
        var checker = DefinitionChecker(file: file)
        if let catalog = checker.check(root), checker.errors.isEmpty { return .success(catalog) }
        let errors = checker.sortedErrors
        return errors.isEmpty ? failure("invalid", "The definition could not be resolved.") : .failure(DefinitionErrors(errors: errors))
    }

    /// Runs `work` on a thread with a large stack and waits for it: Yams composes nested nodes
    /// recursively (and Swift frees them recursively), so a deeply nested file would overflow a
    /// small stack such as a concurrency pool thread's.
    private static func onLargeStack<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = work()
            done.signal()
        }
        thread.stackSize = 1 << 29
        thread.start()
        done.wait()
        guard let value = box.value else { return work() }
        return value
    }
}

/// Hands a value from the worker thread to the waiting one; the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
