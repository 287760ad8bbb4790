import Foundation
import PackagePlugin

/// Embeds the files of the top-level `Explorer/` folder (the browser client served at `/`) into
/// the APIServer module as string constants, the way EmbedOpenAPISpec embeds the spec: the
/// binary serves exactly the page it was built with, and nothing is read from disk at run time.
///
/// Each file becomes a raw string literal delimited by `######"""`; the script refuses a file
/// that contains `######`, the only text that could end the literal early or start an escape.
/// Runs `/bin/sh`, so it needs no tool target of its own.
@main
struct EmbedExplorer: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Explorer")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { name in ["html", "js", "css", "svg", "d.ts"].contains { name.hasSuffix("." + $0) } }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ExplorerAssetsText.swift")
        let script = ##########"""
            out="$1"; shift
            for file in "$@"; do
                if grep -q '######' "$file"; then echo "error: $file contains ######, the embedding delimiter" >&2; exit 1; fi
            done
            {
                printf '/// Generated from Explorer/ by the EmbedExplorer plugin.\nlet explorerAssetTexts: [(name: String, text: String)] = [\n'
                for file in "$@"; do
                    printf '("%s", ######"""\n' "$(basename "$file")"
                    cat "$file"
                    printf '\n"""######),\n'
                done
                printf ']\n'
            } > "$out"
            """##########
        return [
            .buildCommand(
                displayName: "Embedding the explorer (\(names.count) files)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "embed", output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
