import Foundation
import PackagePlugin

/// Embeds `definitions/demo.yaml` into the Definitions module as a string constant, so the
/// binary serves the demo with no file beside it and the definition has one copy in the repo.
/// Runs `/bin/sh`, like EmbedOpenAPISpec.
@main
struct EmbedDemoDefinition: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "definitions/demo.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "DemoDefinitionText.swift")
        let script = ##########"{ printf '/// Generated from definitions/demo.yaml by the EmbedDemoDefinition plugin.\nlet demoDefinitionText = ####"""\n'; cat "$1"; printf '\n"""####\n'; } > "$2""##########
        return [
            .buildCommand(
                displayName: "Embedding definitions/demo.yaml",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "embed", input.path, output.path],
                inputFiles: [input],
                outputFiles: [output]
            )
        ]
    }
}
