import Foundation

/// Defaults for command-line options from `ROWSERVER_*` environment variables.
enum Environment {
    static func string(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static func int(_ name: String) -> Int? {
        string(name).flatMap(Int.init)
    }

    static func double(_ name: String) -> Double? {
        string(name).flatMap(Double.init)
    }

    static func list(_ name: String) -> [String] {
        string(name).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
    }
}
