import Definitions
import Domain
import Foundation
import Testing

@testable import APIServer

/// A catalog that is not the demo: every path, parameter and schema comes from its definition.
@Suite("The OpenAPI document of another catalog", .runsOnce("no store"))
struct OpenAPICatalogTests {
    static let definition = """
        rowserver: 1
        collections:
          stores:
            idPrefix: sto
            title: Stores
            fields:
              name: {type: text, required: true, maxLength: 80}
              opened: {type: dateTime, minimum: "2000-01-01T00:00:00Z"}
            row: {title: "Store {name}"}
            sort: [name]
          orders:
            idPrefix: ord
            title: {en: Orders, de: Bestellungen}
            fields:
              code: {type: text, required: true, maxLength: 12, pattern: "[A-Z]{3}-[0-9]+", description: The order's code.}
              status: {type: enum, required: true, default: new, values: [new, paid, shipped]}
              placed: {type: date, required: true, minimum: "2020-01-01", maximum: "2030-12-31"}
              weight: {type: decimal, scale: 3, minimum: 0.5, maximum: 1250}
              express: {type: boolean, default: false}
              total: {type: money, required: true, currencies: [EUR, JPY], minimum: 0, maximum: {EUR: 100000.00, JPY: 10000000}}
              storeID: {type: reference, to: stores, embed: store, link: store}
              placedAt: {type: dateTime}
              note: {type: longText, readOnly: true, default: ""}
            row: {title: code, subtitle: status, trailing: total}
            sort: [code, placed, total, weight, status]
            defaultSort: [-placed]
            filters:
              status: {field: status, op: oneOf}
              state: {field: status}
              store: {field: storeID, description: Orders of one store.}
              stores: {field: storeID, op: oneOf}
              from: {field: placed, op: atLeast}
              heavier: {field: weight, op: atLeast}
              express: {field: express}
              minTotal: {field: total, op: atLeast}
              after: {field: placedAt, op: atMost}
              code: {field: code, op: oneOf}
            search: false
            sections: {by: status, name: byStatus}
            limit: {default: 20, max: 100}
          lines:
            idPrefix: lin
            title: Lines
            parent: orderID
            fields:
              orderID: {type: reference, to: orders, required: true}
              quantity: {type: integer, required: true, minimum: 1, maximum: 99}
            row: {title: "{quantity} pieces"}
            table:
              columns: [quantity]
              compact: {title: quantity}
        """

    let document: YAMLNode
    let yaml: String

    init() throws {
        let catalog = try DefinitionLoader.load(text: Self.definition, file: "orders.yaml")
        document = OpenAPIDocument.tree(for: catalog, version: "1.2.3")
        yaml = OpenAPIDocument.yaml(for: catalog, version: "1.2.3")
    }

    func schema(_ name: String) throws -> YAMLNode { try #require(document[path: "components", "schemas", name]) }

    @Test func servesTheCollectionsAndTheChildUnderItsParent() throws {
        let operations = OpenAPITestSupport.operations(inYAML: yaml).filter { $0.path.hasPrefix("/v1/") }.map(\.description)
        #expect(
            operations == [
                "GET /v1/stores (listStores)", "POST /v1/stores (createStoresItem)", "GET /v1/stores/changes (changesStores)",
                "GET /v1/stores/index (lettersStores)", "POST /v1/stores/batch (batchStoresItems)", "GET /v1/stores/{id} (getStoresItem)",
                "PATCH /v1/stores/{id} (updateStoresItem)", "DELETE /v1/stores/{id} (deleteStoresItem)",
                "GET /v1/orders (listOrders)", "POST /v1/orders (createOrdersItem)", "GET /v1/orders/changes (changesOrders)",
                "GET /v1/orders/index (lettersOrders)", "POST /v1/orders/batch (batchOrdersItems)", "GET /v1/orders/{id} (getOrdersItem)",
                "PATCH /v1/orders/{id} (updateOrdersItem)",
                "DELETE /v1/orders/{id} (deleteOrdersItem)",
                "GET /v1/orders/{orderID}/lines (listLines)", "POST /v1/orders/{orderID}/lines (createLinesItem)",
                "GET /v1/orders/{orderID}/lines/changes (changesLines)", "POST /v1/orders/{orderID}/lines/batch (batchLinesItems)",
                "GET /v1/orders/{orderID}/lines/{id} (getLinesItem)",
                "PATCH /v1/orders/{orderID}/lines/{id} (updateLinesItem)",
                "DELETE /v1/orders/{orderID}/lines/{id} (deleteLinesItem)",
            ])
        let create = try #require(document[path: "paths", "/v1/orders/{orderID}/lines", "post"])
        #expect(create["parameters"]?.parameterNames == ["orderID", "AcceptLanguage", "IdempotencyKey"])
        #expect(create["responses"]?.keys.contains("404") == true)
        let batch = try #require(document[path: "paths", "/v1/orders/{orderID}/lines/batch", "post"])
        #expect(batch["parameters"]?.parameterNames == ["orderID", "AcceptLanguage", "IdempotencyKey"])
        #expect(batch["responses"]?.keys.contains("412") == true)
        let batchOperations = try #require(try schema("LinesBatch")[path: "properties", "operations"])
        #expect(batchOperations["maxItems"]?.intValue == 100)
        #expect(batchOperations[path: "items", "oneOf"]?.elements.count == 3)
        let item = try schema("LinesBatchResults")[path: "properties", "results", "items", "properties", "item", "$ref"]
        #expect(item?.stringValue == "#/components/schemas/LinesDetail")
        let feed = try #require(document[path: "paths", "/v1/orders/{orderID}/lines/changes", "get"])
        #expect(feed["parameters"]?.parameterNames.prefix(3) == ["orderID", "since", "limit"])
    }

    @Test func listParametersFollowTheDefinition() throws {
        let parameters = try #require(document[path: "paths", "/v1/orders", "get", "parameters"])
        #expect(
            parameters.parameterNames == [
                "limit", "Cursor", "around", "ids", "sort", "view", "group", "count", "status", "state", "store", "stores", "from", "heavier",
                "express",
                "minTotal",
                "after", "code", "AcceptLanguage", "IfNoneMatch",
            ])
        let limit = try #require(parameters.parameter("limit")?["schema"])
        #expect(limit["maximum"]?.intValue == 100 && limit["default"]?.intValue == 20)
        let sort = try #require(parameters.parameter("sort"))
        #expect(sort[path: "schema", "enum"] == nil)
        let one = "-?(code|placed|total|weight|status)"
        #expect(sort[path: "schema", "pattern"]?.stringValue == "^\(one)(,\(one)){0,4}$")
        #expect(sort["description"]?.stringValue?.contains("(default `-placed`)") == true)
        #expect(parameters.parameter("view")?[path: "schema", "enum"]?.strings == ["rows"])
        #expect(parameters.parameter("group")?[path: "schema", "enum"]?.strings == ["byStatus"])
    }

    @Test(arguments: [
        ("status", "pattern", "^(new|paid|shipped)(,(new|paid|shipped))*$"),
        ("store", "pattern", "^sto_[0-9a-hjkmnp-tv-z]{16}$"),
        ("stores", "pattern", "^(sto_[0-9a-hjkmnp-tv-z]{16})(,(sto_[0-9a-hjkmnp-tv-z]{16}))*$"),
        ("from", "pattern", "^\\d{4}-\\d{2}-\\d{2}$"),
        ("heavier", "pattern", "^-?[0-9]+([.][0-9]{1,3})?$"),
        ("minTotal", "pattern", "^(EUR|JPY):-?[0-9]+([.][0-9]+)?$"),
        ("after", "format", "date-time"),
    ])
    func filterValuesHaveTheirTypesShape(name: String, key: String, expected: String) throws {
        let parameters = try #require(document[path: "paths", "/v1/orders", "get", "parameters"])
        let filter = try #require(parameters.parameter(name))
        #expect(filter[path: "schema", key]?.stringValue == expected)
        #expect(filter[path: "schema", "type"]?.stringValue == "string")
        #expect(filter["description"]?.stringValue?.isEmpty == false)
    }

    @Test func closedSetsAreEnumsAndFreeTextIsAString() throws {
        let parameters = try #require(document[path: "paths", "/v1/orders", "get", "parameters"])
        #expect(parameters.parameter("state")?[path: "schema", "enum"]?.strings == ["new", "paid", "shipped"])
        #expect(parameters.parameter("express")?[path: "schema", "enum"]?.strings == ["true", "false"])
        #expect(parameters.parameter("code")?["schema"]?.keys == ["type"])
        #expect(parameters.parameter("store")?["description"]?.stringValue == "Orders of one store.")
        #expect(parameters.parameter("minTotal")?["description"]?.stringValue?.contains("USD:100.00") == true)
    }

    @Test func theDetailListsFieldsInOrderWithTheirShapes() throws {
        let properties = try #require(try schema("OrdersDetail")["properties"])
        #expect(
            properties.keys == [
                "id", "code", "status", "placed", "weight", "express", "total", "storeID", "store", "placedAt", "note", "links",
            ])
        #expect(properties[path: "status", "enum"]?.strings == ["new", "paid", "shipped"])
        #expect(properties[path: "placed", "format"]?.stringValue == "date")
        #expect(properties[path: "weight", "type"]?.strings == ["number", "null"])
        #expect(properties[path: "express", "type"]?.strings == ["boolean", "null"])
        #expect(properties[path: "total", "properties"]?.keys == ["minorUnits", "currency", "formatted"])
        #expect(properties[path: "storeID", "pattern"]?.stringValue == "^sto_[0-9a-hjkmnp-tv-z]{16}$")
        #expect(properties[path: "store", "type"]?.strings == ["object", "null"])
        #expect(properties[path: "store", "properties"]?.keys == ["id", "title", "detail"])
        // Fields without a label are titled by their names read as words.
        #expect(properties[path: "code", "title"]?.stringValue == "Code")
        #expect(properties[path: "storeID", "title"]?.stringValue == "Store ID")
        #expect(properties[path: "placedAt", "title"]?.stringValue == "Placed at")
        #expect(properties[path: "code", "description"]?.stringValue == "The order's code.")
        #expect(properties[path: "links", "properties"]?.keys == ["self", "collection", "store", "lines", "linesTable"])
        #expect(properties[path: "links", "properties", "store", "type"]?.strings == ["string", "null"])
        let stores = try schema("StoresDetail")
        #expect(stores[path: "properties", "links", "properties"]?.keys == ["self", "collection", "orders"])
    }

    @Test func theInputCarriesEachTypesRules() throws {
        let input = try schema("OrdersInput")
        #expect(input["required"]?.strings == ["code", "placed", "total"])
        let properties = try #require(input["properties"])
        #expect(properties.keys == ["code", "status", "placed", "weight", "express", "total", "storeID", "placedAt"])
        #expect(properties[path: "code", "allOf"]?.elements.first?["pattern"]?.stringValue == "^(?:[A-Z]{3}-[0-9]+)$")
        #expect(properties[path: "code", "pattern"]?.stringValue == OpenAPIBuilder.notBlank)
        #expect(properties[path: "status", "type"]?.stringValue == "string")
        #expect(properties[path: "placed", "description"]?.stringValue == "From 2020-01-01 to 2030-12-31, inclusive.")
        #expect(properties[path: "placedAt", "type"]?.strings == ["string", "null"])
        if case .number(let minimum)? = properties[path: "weight", "minimum"], case .number(let maximum)? = properties[path: "weight", "maximum"] {
            #expect(minimum == "0.5" && maximum == "1250")
        } else {
            Issue.record("decimal bounds are not numbers")
        }
        #expect(properties[path: "total", "properties", "currency", "enum"]?.strings == ["EUR", "JPY"])
        #expect(properties[path: "total", "properties", "minorUnits", "minimum"]?.intValue == 0)
        #expect(properties[path: "total", "properties", "minorUnits", "maximum"] == nil, "one number cannot bound two currencies")
        #expect(
            properties[path: "total", "properties", "minorUnits", "description"]?.stringValue
                == "Bounds per currency, inclusive: EUR from 0 (€0.00) to 10000000 (€100,000.00); JPY from 0 (¥0) to 10000000 (¥10,000,000).")
        #expect(properties[path: "express", "type"]?.strings == ["boolean", "null"])
        #expect(properties[path: "storeID", "description"]?.stringValue == "An existing stores item's id (422 when none has it).")
        let stores = try schema("StoresInput")
        #expect(stores[path: "properties", "opened", "description"]?.stringValue == "2000-01-01T00:00:00.000Z or later.")
    }

    @Test func aChildsBodiesLeaveTheParentToThePath() throws {
        #expect(try schema("LinesInput")["properties"]?.keys == ["quantity"])
        #expect(try schema("LinesPatch")["properties"]?.keys == ["quantity"])
        #expect(try schema("LinesDetail")["properties"]?.keys == ["id", "orderID", "quantity", "links"])
    }

    @Test func aPatchRequiresNothing() throws {
        let patch = try schema("OrdersPatch")
        #expect(patch["required"] == nil)
        #expect(patch[path: "properties", "total", "required"]?.strings == [])
        #expect(patch["properties"]?.keys == ["code", "status", "placed", "weight", "express", "total", "storeID", "placedAt"])
    }

    @Test func everyWriteDeclaresTheConflictOfAnIdempotencyKeyInUse() throws {
        let paths = try #require(document["paths"])
        for (path, method) in [("/v1/stores/{id}", "delete"), ("/v1/orders/{id}", "delete"), ("/v1/orders", "post"), ("/v1/orders/{id}", "patch")] {
            #expect(paths[path: path, method, "responses"]?.keys.contains("409") == true, "\(method) \(path)")
            #expect(paths[path: path, method, "responses"]?.keys.contains("422") == true, "\(method) \(path)")
        }
    }

    @Test func pagesAllowTheLargestLimit() throws {
        #expect(try schema("RowPage")[path: "properties", "limit", "maximum"]?.intValue == 200)
    }

    @Test(.enabled(if: OpenAPITestSupport.validatorIsAvailable, "needs python3 -m openapi_spec_validator"))
    func passesTheOpenAPIValidator() throws {
        let result = try OpenAPITestSupport.validate(yaml, name: "orders")
        #expect(result.status == 0, "\(result.output)")
    }
}
