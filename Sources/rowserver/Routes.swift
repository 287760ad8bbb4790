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

    @OptionGroup var definition: DefinitionOption

    func run() throws {
        let catalog = try definition.catalog()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try CatalogStore(path: directory.appendingPathComponent("routes.sqlite").path, catalog: catalog)
        let router = Application.makeRouter(
            .init(registry: PrometheusCollectorRegistry(), logger: Logger(label: "routes"), store: store))
        for route in router.templates {
            print("\(route.method.rawValue) \(route.template)")
        }
    }
}
