import ArgumentParser
import Foundation
import Logging

extension Serve {
    /// The text of a PEM file named by `option`. The server takes PEM text, not paths: the files
    /// are read once here, at start, so an unreadable one stops the start with its name, before
    /// the database is opened.
    static func readPEM(_ path: String, option: String, logger: Logger) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            logger.critical("cannot start: cannot read \(option) \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
