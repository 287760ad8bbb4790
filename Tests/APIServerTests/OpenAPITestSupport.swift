import Foundation
import HTTPTestSupport

@testable import APIServer

/// Reading OpenAPI documents in tests: their operations from the YAML text (the layout both the
/// Python generator and ``OpenAPIDocument`` write), and the OpenAPI validator when it is installed.
enum OpenAPITestSupport {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One operation: `GET /v1/products` and its operationId.
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var operationID: String
        var description: String { "\(method.uppercased()) \(path) (\(operationID))" }
    }

    /// The operations under `paths:` of a block-style document whose path keys are quoted at two
    /// spaces, methods at four, and operation keys at six.
    static func operations(inYAML text: String) -> [Operation] {
        var operations: [Operation] = []
        var inPaths = false
        var path: String?
        var method: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if !line.hasPrefix(" ") {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  \""), !line.hasPrefix("   ") {
                path = line.trimmingCharacters(in: .whitespaces).dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } else if line.hasPrefix("    "), !line.hasPrefix("     ") {
                method = String(line.trimmingCharacters(in: .whitespaces).dropLast())
            } else if line.hasPrefix("      operationId: "), let path, let method {
                let id = line.dropFirst("      operationId: ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                operations.append(Operation(method: method, path: path, operationID: id))
            }
        }
        return operations
    }

    /// Whether `python3 -m openapi_spec_validator` can run here.
    static let validatorIsAvailable: Bool = (try? run(["-c", "import openapi_spec_validator"]))?.status == 0

    /// Validates a document with `python3 -m openapi_spec_validator`; the exit status and output.
    static func validate(_ yaml: String, name: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-openapi-\(UUID().uuidString)-\(name).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(["-m", "openapi_spec_validator", file.path])
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension YAMLNode {
    /// The names of a list of parameters: each one's `name`, or the component a `$ref` names.
    var parameterNames: [String] {
        elements.compactMap { parameter in
            parameter["name"]?.stringValue ?? parameter["$ref"]?.stringValue?.split(separator: "/").last.map(String.init)
        }
    }

    /// The parameter called `name` in a list of parameters.
    func parameter(_ name: String) -> YAMLNode? {
        elements.first { $0["name"]?.stringValue == name }
    }

    var intValue: Int64? {
        guard case .int(let value) = self else { return nil }
        return value
    }

    var strings: [String] { elements.compactMap(\.stringValue) }

    /// The node at a path of keys.
    subscript(path keys: String...) -> YAMLNode? {
        keys.reduce(Optional(self)) { node, key in node?[key] }
    }
}
