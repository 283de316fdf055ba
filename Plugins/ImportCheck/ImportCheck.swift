import PackagePlugin

/// Fails the build of a target that imports a module of this package it does not declare as a
/// dependency. SwiftPM's own `--explicit-target-dependency-import-check` lets a target import
/// anything its dependencies depend on (the facade could import the face models through the
/// engine), so the house's arrows are held here, for every target, test targets included, in
/// every build: a plain `swift build` and `swift test` too. awk reads the sources (no tool to
/// build first); its output is an empty Swift file, so the check runs again whenever a source of
/// the target changes.
@main
struct ImportCheck: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else { return [] }
        let sources = module.sourceFiles(withSuffix: "swift").map(\.path)
        let declared = target.dependencies.compactMap { dependency -> String? in
            if case .target(let t) = dependency { return t.name }
            return nil
        }
        // A kernel variant's module (Faces_avx512) imports its variant of a module by the module's
        // own name (swiftc's -module-alias, see Package.swift): TensorLite_avx512 declared is
        // TensorLite imported.
        let variant = target.name.firstIndex(of: "_").map { String(target.name[$0...]) }
        let aliased = variant.map { v in declared.filter { $0.hasSuffix(v) }.map { String($0.dropLast(v.count)) } } ?? []
        let own = context.package.targets.map(\.name)
        let output = context.pluginWorkDirectory.appending("ImportCheck.swift")
        let script = #"""
            target="$1"; own=" $2 "; allowed=" $3 $1 "; out="$4"; shift 4
            awk -v target="$target" -v own="$own" -v allowed="$allowed" '
              /^[ \t]*(@[A-Za-z_]+[ \t]+)*import[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*$/ {
                m = $0; sub(/^.*import[ \t]+/, "", m); sub(/[ \t]*$/, "", m)
                if (index(own, " " m " ") && !index(allowed, " " m " ")) {
                  print FILENAME ":" FNR ": error: " target " imports " m ", which Package.swift does not declare as its dependency (see docs/architecture.md)" > "/dev/stderr"
                  failed = 1
                }
              }
              END { exit failed }
            ' "$@" || exit 1
            printf '%s\n' "// Written by Plugins/ImportCheck: $target imports only what Package.swift declares." > "$out"
            """#
        return [
            .buildCommand(
                displayName: "Checking \(target.name)'s imports", executable: Path("/bin/sh"),
                arguments: ["-c", script, "sh", target.name, own.joined(separator: " "), (declared + aliased).joined(separator: " "), output.string]
                    + sources.map(\.string),
                inputFiles: sources, outputFiles: [output])
        ]
    }
}
