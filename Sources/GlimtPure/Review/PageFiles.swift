import Foundation
import GlimtCore

/// The review page's own files, kept as what they are (`Review/Page/`: review.html, review.css,
/// review.js, choices.js and palette.css) and found the way the model weights are
/// (`BakedWeights`), in the first of these folders that holds them:
/// 1. `$GLIMT_PAGE_DIR`, when set, and then nowhere else, so a wrong setting is never hidden by
///    another copy;
/// 2. beside the running binary, as `swift build` lays them out (`glimt-pure_GlimtPure.resources/Page/`);
/// 3. `PREFIX/share/glimt-pure/page/` for a binary installed as `PREFIX/bin/glimt-pure`
///    (`tools/install.sh`, the Debian package).
/// No resource-bundle accessor: SwiftPM's traps when the build folder is gone, and a copied or
/// installed binary must say where it looked instead.
enum PageFiles {
    static let environmentKey = "GLIMT_PAGE_DIR"
    /// Every file of the page; the skeleton of a year page first.
    static let names = ["review.html", "palette.css", "review.css", "choices.js", "review.js"]
    /// They are tens of kilobytes; past this a file is not one of them.
    static let maxBytes = 4 << 20

    /// Every file's bytes by name, read from one folder; or one line naming the first file missing
    /// and every place looked in.
    static func load() throws -> [String: [UInt8]] {
        let folders = searchFolders()
        let readable = { (folder: URL, name: String) in FileManager.default.isReadableFile(atPath: folder.appendingPathComponent(name).path) }
        guard let folder = folders.first(where: { f in names.allSatisfy { readable(f, $0) } }) else {
            // The file missing from the first folder that holds any of them: a half-installed copy.
            let partial = folders.first { f in names.contains { readable(f, $0) } }
            let missing = partial.flatMap { f in names.first { !readable(f, $0) } } ?? names[0]
            throw GlimtError(
                "the review page's file \(missing) is missing (looked in \(folders.map(\.path).joined(separator: ", "))); "
                    + "reinstall glimt-pure (its Debian package, or tools/install.sh) or set \(environmentKey)")
        }
        var files: [String: [UInt8]] = [:]
        for name in names {
            do { files[name] = try FileName.read(folder.appendingPathComponent(name).path, limit: maxBytes) } catch let e as GlimtError {
                throw GlimtError("cannot read the review page's file (\(e.reason))", path: folder.appendingPathComponent(name).path)
            }
        }
        return files
    }

    static func searchFolders() -> [URL] {
        if let dir = ProcessInfo.processInfo.environment[environmentKey], !dir.isEmpty {
            return [URL(fileURLWithPath: dir, isDirectory: true)]
        }
        guard let binary = RunningBinary.path.map({ URL(fileURLWithPath: $0).deletingLastPathComponent() }) else { return [] }
        let prefix = binary.deletingLastPathComponent()
        return [
            binary.appendingPathComponent("glimt-pure_GlimtPure.resources/Page", isDirectory: true),
            prefix.appendingPathComponent("share/glimt-pure/page", isDirectory: true),
        ]
    }
}
