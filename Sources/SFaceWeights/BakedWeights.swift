import Foundation

/// Where the baked `.glw` weight files are. In order:
/// 1. `$GLIMT_WEIGHTS_DIR`, when set (for trying freshly exported weights without rebuilding);
///    then nowhere else, so a wrong setting is never hidden by another copy;
/// 2. beside the running binary, as `swift build` lays them out
///    (`glimt-pure_SFaceWeights.resources/Resources/`);
/// 3. `PREFIX/share/glimt-pure/` for a binary installed as `PREFIX/bin/glimt-pure`
///    (`tools/install.sh`, the Debian package).
/// No resource-bundle accessor: SwiftPM's traps when the build folder is gone, and a copied or
/// installed binary must say where it looked instead.
public enum BakedWeights {
    public static let environmentKey = "GLIMT_WEIGHTS_DIR"

    /// The file for `name` (`sface`, `yunet`), or every place looked in when there is none.
    public static func locate(_ name: String) -> Result<URL, NotFound> {
        let file = "\(name).glw"
        let folders = searchFolders()
        for folder in folders where FileManager.default.isReadableFile(atPath: folder.appendingPathComponent(file).path) {
            return .success(folder.appendingPathComponent(file))
        }
        return .failure(NotFound(file: file, searched: folders.map(\.path)))
    }

    public struct NotFound: Error, CustomStringConvertible {
        public let file: String
        public let searched: [String]
        public var description: String {
            "the model weights \(file) are missing (looked in \(searched.joined(separator: ", "))); reinstall glimt-pure (its Debian package, or tools/install.sh) or set \(BakedWeights.environmentKey)"
        }
    }

    static func searchFolders() -> [URL] {
        if let dir = ProcessInfo.processInfo.environment[environmentKey], !dir.isEmpty {
            return [URL(fileURLWithPath: dir, isDirectory: true)]
        }
        guard let binary = executableFolder() else { return [] }
        return [
            binary.appendingPathComponent("glimt-pure_SFaceWeights.resources/Resources", isDirectory: true),
            binary.deletingLastPathComponent().appendingPathComponent("share/glimt-pure", isDirectory: true),
        ]
    }

    /// The folder of the running binary, symlinks resolved (a link in ~/bin to an installed
    /// binary still finds the weights beside the real one).
    static func executableFolder() -> URL? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return Bundle.main.executableURL?.deletingLastPathComponent() }
        return URL(fileURLWithPath: String(cString: buffer), isDirectory: false).deletingLastPathComponent()
    }
}
