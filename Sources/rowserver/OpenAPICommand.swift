import APIServer
import ArgumentParser
import Domain

/// `rowserver openapi`: the OpenAPI 3.1 document of a definition, as `GET /openapi.yaml` serves it.
/// The top-level `openapi.yaml` is this command's output for the demo.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Print the OpenAPI 3.1 document of a definition (the demo's without --collections).")

    @OptionGroup var definition: DefinitionOption

    func run() throws {
        print(OpenAPIDocument.yaml(for: try definition.catalog(), version: RowserverVersion.current), terminator: "")
    }
}
