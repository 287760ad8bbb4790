import Definitions
import Domain
import Foundation
import HTTPTestSupport
import Testing

@testable import APIServer

/// The OpenAPI document of `examples/outline.yaml` holds the outlines' routes and shapes, and a
/// live server's answers have exactly the keys it describes (its objects allow no others).
@Suite("The OpenAPI document of outlines")
struct OutlineOpenAPITests {
    let document: YAMLNode
    let yaml: String

    init() throws {
        let path = OpenAPITestSupport.repositoryRoot.appendingPathComponent("examples/outline.yaml").path
        let catalog = try DefinitionLoader.load(path: path)
        document = OpenAPIDocument.tree(for: catalog, version: "1.2.3")
        yaml = OpenAPIDocument.yaml(for: catalog, version: "1.2.3")
    }

    func properties(_ schema: String) throws -> Set<String> {
        Set(try #require(document[path: "components", "schemas", schema, "properties"]).keys)
    }

    @Test func everyOutlineHasItsLevelsAndTheirFeeds() throws {
        let operations = OpenAPITestSupport.operations(inYAML: yaml).filter { $0.path.hasPrefix("/v1/folders") }.map(\.description)
        #expect(
            operations == [
                "GET /v1/folders (listFolders)", "POST /v1/folders (createFoldersItem)", "GET /v1/folders/changes (changesFolders)",
                "GET /v1/folders/index (lettersFolders)", "POST /v1/folders/batch (batchFoldersItems)", "GET /v1/folders/{id} (getFoldersItem)",
                "PATCH /v1/folders/{id} (updateFoldersItem)",
                "DELETE /v1/folders/{id} (deleteFoldersItem)", "GET /v1/folders/roots (listFoldersRoots)",
                "GET /v1/folders/roots/changes (changesFoldersRoots)", "GET /v1/folders/{id}/children (listFoldersChildren)",
                "GET /v1/folders/{id}/children/changes (changesFoldersChildren)",
            ])
        #expect(OpenAPITestSupport.operations(inYAML: yaml).count(where: { $0.path.hasPrefix("/v1/units") }) == 12)
        let children = try #require(document[path: "paths", "/v1/folders/{id}/children", "get", "parameters"])
        #expect(children.parameterNames.prefix(2) == ["id", "limit"])
        let update = try #require(document[path: "paths", "/v1/folders/{id}", "patch", "description"]?.stringValue)
        #expect(update.contains("TREE_CYCLE"))
    }

    @Test func aServersAnswersHaveTheKeysTheDocumentDescribes() async throws {
        let outline = try OutlineServer()
        let root = try await outline.folder("Root")
        let child = try await outline.folder("Child", under: root)
        let row = try #require(try await outline.rows("/v1/folders/\(root)/children").first)
        #expect(Set(row.keys) == (try properties("RenderRow")))
        let table = try #require(try await outline.server.get("/v1/folders/roots?view=table").json)
        #expect(Set(try #require((table["rows"] as? [[String: Any]])?.first).keys) == (try properties("TableRow")))
        #expect(Set(try #require(table["links"] as? [String: Any]).keys) == (try properties("PageLinks")))
        let detail = try #require(try await outline.server.get("/v1/folders/\(child)").json)
        #expect(Set(detail.keys) == (try properties("FoldersDetail")))
        let links = try #require(document[path: "components", "schemas", "FoldersDetail", "properties", "links", "properties"])
        #expect(Set(try #require(detail["links"] as? [String: Any]).keys) == Set(links.keys))
    }

    @Test(.enabled(if: OpenAPITestSupport.validatorIsAvailable, "needs python3 -m openapi_spec_validator"))
    func passesTheOpenAPIValidator() throws {
        let result = try OpenAPITestSupport.validate(yaml, name: "outline")
        #expect(result.status == 0, "\(result.output)")
    }
}
