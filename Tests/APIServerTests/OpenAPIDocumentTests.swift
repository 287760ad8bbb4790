import Definitions
import Domain
import Foundation
import Testing

@testable import APIServer

/// The OpenAPI document of the demo definition: the operations the Python generator described,
/// under their new names, the same bytes every time, and a valid OpenAPI 3.1 document.
@Suite("The OpenAPI document of the demo", .runsOnce("no store"))
struct OpenAPIDocumentTests {
    let catalog: Catalog
    let yaml: String
    let document: YAMLNode

    init() throws {
        catalog = try DefinitionLoader.demo()
        yaml = OpenAPIDocument.yaml(for: catalog, version: RowserverVersion.current)
        document = OpenAPIDocument.tree(for: catalog, version: RowserverVersion.current)
    }

    /// The Python generator named items by singular titles and the sample path's id `sampleID`.
    static let pythonTitles = [
        "Product": "Products", "Department": "Departments", "Person": "People", "Article": "Articles", "Document": "Documents",
        "Track": "Tracks", "Sample": "Samples",
    ]

    static func renamed(_ operation: OpenAPITestSupport.Operation) -> OpenAPITestSupport.Operation {
        var result = operation
        result.path = operation.path.replacingOccurrences(of: "{sampleID}", with: "{id}")
        for verb in ["get", "create", "update", "delete"] {
            guard operation.operationID.hasPrefix(verb), let name = pythonTitles[String(operation.operationID.dropFirst(verb.count))] else {
                continue
            }
            result.operationID = verb + name + "Item"
        }
        return result
    }

    @Test func hasEveryOperationOfThePythonDocument() throws {
        let python = try String(contentsOf: OpenAPITestSupport.repositoryRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let expected = OpenAPITestSupport.operations(inYAML: python).map(Self.renamed)
        let generated = OpenAPITestSupport.operations(inYAML: yaml)
        #expect(expected.count == 58)
        #expect(Set(generated) == Set(expected))
        #expect(generated.count == Set(generated).count)
    }

    @Test func isTheSameBytesEveryTime() throws {
        let again = try DefinitionLoader.demo()
        #expect(OpenAPIDocument.yaml(for: again, version: RowserverVersion.current) == yaml)
        #expect(document.yaml == yaml)
    }

    @Test func carriesTheVersionItIsGiven() {
        #expect(document[path: "info", "version"]?.stringValue == RowserverVersion.current)
        #expect(OpenAPIDocument.tree(for: catalog, version: "9.9.9")[path: "info", "version"]?.stringValue == "9.9.9")
        #expect(yaml.hasPrefix("openapi: \"3.1.0\"\ninfo:\n  title: \"rowserver\"\n"))
    }

    @Test func namesSchemasAfterCollections() throws {
        let schemas = try #require(document[path: "components", "schemas"]).keys
        for name in ["Products", "Departments", "People", "Articles", "Documents", "Tracks"] {
            #expect(schemas.contains("\(name)Detail") && schemas.contains("\(name)Input") && schemas.contains("\(name)Patch"))
        }
        #expect(schemas.contains("SamplesDetail"))
        #expect(!schemas.contains("SamplesInput") && !schemas.contains("SamplesPatch"))
    }

    @Test func listsEverySortExpressionOfAFewSorts() throws {
        let parameters = try #require(document[path: "paths", "/v1/people", "get", "parameters"])
        #expect(
            parameters.parameterNames == [
                "limit", "Cursor", "around", "ids", "sort", "Search", "view", "group", "count", "department", "AcceptLanguage", "IfNoneMatch",
            ])
        let sorts = try #require(parameters.parameter("sort")?[path: "schema", "enum"]).strings
        #expect(sorts.count == 78 && Set(sorts).count == 78)
        #expect(sorts.prefix(7) == ["familyName", "-familyName", "givenName", "-givenName", "emailAddress", "-emailAddress", "familyName,givenName"])
        #expect(sorts.contains("-emailAddress,givenName,-familyName"))
        #expect(parameters.parameter("group")?[path: "schema", "enum"]?.strings == ["department"])
        #expect(parameters.parameter("department")?[path: "schema", "pattern"]?.stringValue == "^dep_[0-9a-hjkmnp-tv-z]{16}$")
        #expect(parameters.parameter("view")?[path: "schema", "enum"]?.strings == ["rows", "table"])
    }

    @Test func aChildIsListedUnderItsParentWithoutSearchOrWrites() throws {
        let list = try #require(document[path: "paths", "/v1/tracks/{trackID}/samples"])
        #expect(list.keys == ["get"])
        let parameters = try #require(list[path: "get", "parameters"])
        #expect(
            parameters.parameterNames == ["trackID", "limit", "Cursor", "around", "ids", "sort", "view", "count", "AcceptLanguage", "IfNoneMatch"])
        #expect(parameters.parameter("trackID")?[path: "schema", "pattern"]?.stringValue == "^trk_[0-9a-hjkmnp-tv-z]{16}$")
        #expect(parameters.parameter("sort")?[path: "schema", "enum"]?.strings == ["timestamp", "-timestamp"])
        let item = try #require(document[path: "paths", "/v1/tracks/{trackID}/samples/{id}", "get"])
        #expect(item["parameters"]?.parameterNames == ["trackID", "id", "AcceptLanguage", "IfNoneMatch"])
        #expect(item["operationId"]?.stringValue == "getSamplesItem")
    }

    @Test func moneyFiltersTakeACurrencyAndAnAmount() throws {
        let parameters = try #require(document[path: "paths", "/v1/products", "get", "parameters"])
        for name in ["minPrice", "maxPrice"] {
            let filter = try #require(parameters.parameter(name))
            #expect(filter[path: "schema", "pattern"]?.stringValue == "^[A-Z]{3}:-?[0-9]+([.][0-9]+)?$")
            #expect(filter["description"]?.stringValue?.contains("USD:100.00") == true)
        }
    }

    @Test func detailsEmbedAndLinkTheirRelatives() throws {
        let schemas = try #require(document[path: "components", "schemas"])
        let people = try #require(schemas[path: "PeopleDetail", "properties"])
        #expect(people.keys == ["id", "givenName", "familyName", "fullName", "emailAddress", "phoneNumber", "departmentID", "department", "links"])
        #expect(people[path: "department", "properties"]?.keys == ["id", "name", "detail"])
        #expect(people[path: "fullName", "type"]?.strings == ["string", "null"])
        #expect(schemas[path: "DepartmentsDetail", "properties", "links", "properties"]?.keys == ["self", "collection", "people"])
        #expect(schemas[path: "TracksDetail", "properties", "links", "properties"]?.keys == ["self", "collection", "samples", "samplesTable"])
        let samples = try #require(schemas[path: "SamplesDetail", "properties"])
        #expect(samples[path: "links", "properties"]?.keys == ["self", "collection", "track"])
        #expect(samples[path: "levels", "items", "properties"]?.keys == ["channel", "name", "level", "formatted"])
        #expect(schemas[path: "ProductsDetail", "properties", "price", "properties"]?.keys == ["minorUnits", "currency", "formatted"])
    }

    @Test func writeBodiesCarryTheValidationRules() throws {
        let schemas = try #require(document[path: "components", "schemas"])
        let products = try #require(schemas["ProductsInput"])
        #expect(products["required"]?.strings == ["name", "price"])
        #expect(products[path: "properties", "name", "pattern"]?.stringValue == OpenAPIBuilder.notBlank)
        #expect(products[path: "properties", "name", "minLength"]?.intValue == 1)
        #expect(products[path: "properties", "name", "maxLength"]?.intValue == 200)
        #expect(products[path: "properties", "shortDescription", "type"]?.strings == ["string", "null"])
        let minorUnits = try #require(products[path: "properties", "price", "properties", "minorUnits"])
        #expect(minorUnits["minimum"]?.intValue == 0)
        #expect(minorUnits["maximum"] == nil, "the maximum is per currency")
        #expect(
            minorUnits["description"]?.stringValue
                == "Bounds per currency, inclusive: EUR from 0 (€0.00) to 100000000 (€1,000,000.00); GBP from 0 (£0.00) to 100000000 "
                + "(£1,000,000.00); JPY from 0 (¥0) to 100000000 (¥100,000,000); USD from 0 ($0.00) to 100000000 ($1,000,000.00).")
        let currencies = try #require(products[path: "properties", "price", "properties", "currency", "enum"]).strings
        #expect(currencies == Currency.all.map(\.code) && currencies.contains("USD"))
        let people = try #require(schemas["PeopleInput"])
        #expect(people["required"]?.strings == ["givenName", "familyName", "emailAddress", "phoneNumber", "departmentID"])
        #expect(people[path: "properties", "emailAddress", "pattern"]?.stringValue == OpenAPIBuilder.emailPattern)
        #expect(people[path: "properties", "phoneNumber", "pattern"]?.stringValue == OpenAPIBuilder.phonePattern)
        #expect(people[path: "properties"]?.keys.contains("fullName") == false)
        let tracks = try #require(schemas["TracksInput"])
        #expect(tracks[path: "properties", "channels", "maxItems"]?.intValue == 16)
        #expect(tracks[path: "properties", "channels", "items", "properties", "name", "maxLength"]?.intValue == 50)
        #expect(schemas[path: "TracksPatch", "properties"]?.keys == ["title"])
        #expect(schemas[path: "TracksPatch", "description"]?.stringValue?.contains("`channels`") == true)
        #expect(schemas[path: "ProductsPatch", "properties", "price", "required"]?.strings == [])
        #expect(schemas[path: "ProductsPatch", "required"] == nil)
    }

    /// A restricted reference, or a retry under an Idempotency-Key whose first request still runs.
    @Test func everyDeleteCanConflictAndTakesAnIdempotencyKey() throws {
        let paths = try #require(document["paths"])
        for path in ["/v1/departments/{id}", "/v1/tracks/{id}", "/v1/products/{id}"] {
            #expect(paths[path: path, "delete", "responses"]?.keys.contains("409") == true, "\(path)")
            #expect(paths[path: path, "delete", "parameters"]?.parameterNames.contains("IdempotencyKey") == true, "\(path)")
        }
    }

    @Test func theIndexAnswersInTheRequestsLanguage() throws {
        let index = try #require(document[path: "paths", "/v1", "get"])
        #expect(index["parameters"]?.parameterNames == ["AcceptLanguage", "IfNoneMatch"])
        #expect(index[path: "responses", "200", "headers"]?.keys.contains("Content-Language") == true)
    }

    /// swift-openapi-generator skips a `oneOf` with a `{type: "null"}` branch ("Schema null is not
    /// supported"), losing the property; `type: [object, "null"]` it reads as an optional.
    @Test func nullablesAreWrittenAsATypeListNeverAsANullBranch() throws {
        #expect(!yaml.contains("- type: \"null\""))
        let pages = try #require(document[path: "components", "schemas", "RowPage", "properties", "empty", "type"])
        #expect(pages.strings == ["object", "null"])
        let links = try #require(document[path: "components", "schemas", "TableColumn", "properties", "links", "type"])
        #expect(links.strings == ["object", "null"])
    }

    @Test(.enabled(if: OpenAPITestSupport.validatorIsAvailable, "needs python3 -m openapi_spec_validator"))
    func passesTheOpenAPIValidator() throws {
        let result = try OpenAPITestSupport.validate(yaml, name: "demo")
        #expect(result.status == 0, "\(result.output)")
    }
}
