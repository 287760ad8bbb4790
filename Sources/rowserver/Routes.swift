import APIServer
import ArgumentParser
import Foundation
import Logging
import Prometheus
import Storage

/// `rowserver routes`: every route the server registers, one `METHOD TEMPLATE` per line.
/// The spec test compares this list with openapi.yaml's paths.
struct Routes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print every route the server answers (METHOD TEMPLATE).")

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("routes.sqlite").path, options: .init())
        let router = Application.makeRouter(
            .init(registry: PrometheusCollectorRegistry(), logger: Logger(label: "routes"), store: store))
        for route in router.templates {
            print("\(route.method.rawValue) \(route.template)")
        }
    }
}
