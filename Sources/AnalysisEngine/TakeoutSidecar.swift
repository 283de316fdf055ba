import Foundation
import GlimtCore

/// Google Takeout's JSON beside an exported photo or video: its `photoTakenTime.timestamp`
/// (seconds since 1970, UTC) is the capture time when the file itself lost it.
///
/// Takeout names the sidecar of `NAME.EXT` in several ways, tried in this order:
/// `NAME.EXT.json`, `NAME.EXT.supplemental-metadata.json` (exports since 2024), `NAME.json`;
/// for a second file of the same name, `NAME(1).EXT`, the number moves: `NAME.EXT(1).json`,
/// `NAME.EXT.supplemental-metadata(1).json`; and long names are cut so that the sidecar's name
/// stays within 51 characters, e.g. `NAME.EXT.supplemental-metad.json`. A cut name is taken
/// only when it is at least 30 characters long and its `title` (when it has one) is the file's
/// name, so a short prefix never dates another file's video.
public enum TakeoutSidecar {
    /// Sidecars are a few hundred bytes; anything past this is not one.
    public static let maxBytes = 256 << 10
    static let minimumCutName = 30

    /// The capture time of `path` from its sidecar, nil when there is none or it says nothing usable.
    public static func takenTime(of path: String) -> Date? {
        for (candidate, cut) in candidates(for: path) {
            // Only a regular file within the size is read (a FIFO or a folder of that name is no sidecar).
            guard let bytes = FileName.contents(of: candidate, limit: maxBytes),
                let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            else { continue }
            if cut, let title = json["title"] as? String, title != URL(fileURLWithPath: path).lastPathComponent { continue }
            guard let taken = json["photoTakenTime"] as? [String: Any] else { continue }
            let value = taken["timestamp"]
            if let text = value as? String, let seconds = Double(text) { return Date(timeIntervalSince1970: seconds) }
            if let seconds = value as? Double { return Date(timeIntervalSince1970: seconds) }
        }
        return nil
    }

    /// The names to try, with whether each is a cut one.
    static func candidates(for path: String) -> [(path: String, cut: Bool)] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        let stem = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension
        var names = [name + ".json", name + ".supplemental-metadata.json", stem + ".json"]
        // `NAME(1).EXT`: Takeout puts the number after the extension in the sidecar's name.
        if let open = stem.lastIndex(of: "("), stem.hasSuffix(")"), open > stem.startIndex,
            stem[stem.index(after: open)..<stem.index(before: stem.endIndex)].allSatisfy(\.isNumber)
        {
            let base = String(stem[..<open]) + (ext.isEmpty ? "" : "." + ext)
            let number = String(stem[open...])
            names += [base + number + ".json", base + ".supplemental-metadata" + number + ".json"]
        }
        var result = names.map { (folder.appendingPathComponent($0).path, false) }
        let full = name + ".supplemental-metadata"
        if full.count > minimumCutName {
            for length in stride(from: full.count - 1, through: minimumCutName, by: -1) {
                result.append((folder.appendingPathComponent(String(full.prefix(length)) + ".json").path, true))
            }
        }
        return result
    }
}
