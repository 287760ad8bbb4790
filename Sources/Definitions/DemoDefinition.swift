/// The demo's definition (`definitions/demo.yaml`, embedded at build time): what rowserver
/// serves when no definition file is given.
public enum DemoDefinition {
    /// The file's text.
    public static let text: String = demoDefinitionText
    /// The name errors and `rowserver check` use for it.
    public static let fileName = "definitions/demo.yaml"
}
