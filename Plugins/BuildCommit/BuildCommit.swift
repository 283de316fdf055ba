import Foundation
import PackagePlugin

/// Bakes the git commit the CLI is built from into it (`BuildCommit.id`, printed by
/// `glimt-pure --version`), or "unknown" outside a git checkout: a binary found on a machine
/// months later can say what it is. No network: `git rev-parse` reads the checkout.
///
/// A build command rather than a prebuild one, because SwiftPM skips prebuild commands on builds
/// where nothing else changed. Its inputs are the files git changes on every commit, checkout or
/// reset (`HEAD` and its reflog), so the commit is read again exactly when it can have changed,
/// and an unchanged commit rebuilds nothing.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directory.string
        let output = context.pluginWorkDirectory.appending("BuildCommit.swift")
        // The commit of this package's own checkout only: a source tree unpacked inside another
        // repository is "unknown", not that repository's commit.
        let script = #"""
            top=$(git -C "$1" rev-parse --show-toplevel 2>/dev/null) && [ "$(cd "$top" && pwd -P)" = "$(cd "$1" && pwd -P)" ] \
                && commit=$(git -C "$1" rev-parse HEAD 2>/dev/null) || commit=unknown
            printf '// Written by Plugins/BuildCommit at build time.\nenum BuildCommit {\n    static let id = "%s"\n}\n' "$commit" > "$2"
            """#
        return [
            .buildCommand(
                displayName: "Reading the git commit", executable: Path("/bin/sh"),
                arguments: ["-c", script, "sh", package, output.string],
                inputFiles: gitFilesThatMove(package).map { Path($0) }, outputFiles: [output])
        ]
    }

    /// `HEAD` and `logs/HEAD` of the checkout's git folder (a worktree's own), or none.
    private func gitFilesThatMove(_ package: String) -> [String] {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", package, "rev-parse", "--absolute-git-dir"]
        let pipe = Pipe()
        git.standardOutput = pipe
        git.standardError = FileHandle.nullDevice
        guard (try? git.run()) != nil else { return [] }
        let folder = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        git.waitUntilExit()
        guard git.terminationStatus == 0, !folder.isEmpty else { return [] }
        return ["HEAD", "logs/HEAD"].map { folder + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }
}
