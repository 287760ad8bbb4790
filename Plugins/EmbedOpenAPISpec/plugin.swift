import Foundation
import PackagePlugin

/// Embeds the top-level `openapi.yaml` into the APIServer module as a string constant, so the
/// binary serves exactly the spec it was built with and the spec has a single copy in the repo.
/// (A resource would need the file inside the target's folder; a symlink there is copied as a
/// broken link.) Runs `/bin/sh`, so it needs no tool target of its own.
@main
struct EmbedOpenAPISpec: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPISpecText.swift")
        let script = ##########"{ printf '/// Generated from openapi.yaml by the EmbedOpenAPISpec plugin.\nlet openAPISpecText = ####"""\n'; cat "$1"; printf '\n"""####\n'; } > "$2""##########
        return [
            .buildCommand(
                displayName: "Embedding openapi.yaml",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "embed", input.path, output.path],
                inputFiles: [input],
                outputFiles: [output]
            )
        ]
    }
}
