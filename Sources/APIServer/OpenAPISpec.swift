/// The OpenAPI document this server implements: the top-level `openapi.yaml`, embedded at
/// build time by the EmbedOpenAPISpec plugin.
enum OpenAPISpec {
    static let bytes: [UInt8] = Array(openAPISpecText.utf8)
}
