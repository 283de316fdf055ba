import Foundation
import GlimtCore
import Library

/// The files a run reads, which none of its outputs may replace: the videos a film is cut
/// from, the library's store and reference list, reference photos, a picks file. An output is
/// compared with them by device and inode, so a symbolic or hard link to one of them is caught
/// whatever its name. A library's videos are looked up by the output's size, so a library of
/// years costs one query, not a stat of every video.
public struct ReadFiles {
    private var files: [(path: String, what: String)] = []
    private var stores: [LibraryStore] = []

    public init() {}

    /// `what` says what they are to the person, e.g. "one of the videos the film is made from".
    public mutating func add(_ paths: [String], as what: String) {
        files += paths.map { ($0, what) }
    }

    /// Reference photos (the run's `--ref` ones, or the library's), and the library's list of
    /// them with its thumbnails when they are stored.
    public mutating func add(_ references: References.Choice) {
        switch references {
        case .none: break
        case .photos(let specs): add(specs.map { References.parse($0).path }, as: "a reference photo")
        case .stored(let library, _), .everyone(let library): add(ReferenceStore(library: library))
        }
    }

    public mutating func add(_ references: ReferenceStore) {
        add(references.files, as: "one of the library's own files")
        add(((try? references.list()) ?? []).map(\.photo), as: "a reference photo the library lists")
    }

    /// The library: its store's files, its references, and every video it scanned.
    public mutating func add(_ store: LibraryStore) {
        stores.append(store)
        add(store.files, as: "one of the library's own files")
        add(ReferenceStore(library: store.folder))
    }

    /// Throws, naming what `output` would replace, when it is one of these files; `option` is
    /// how the person names the output (`--out`, `--sheet`).
    public func check(_ output: String, option: String) throws {
        if let hit = hit(output) {
            throw GlimtError("is \(hit.what) (\(ShownPath.escaped(hit.path))), which this run reads; choose another \(option)", path: output)
        }
    }

    /// Which of these files `output` is (through any link), and what it is to the person; nil
    /// when it is none of them.
    public func hit(_ output: String) -> (path: String, what: String)? {
        guard let out = try? FileStatus(output), out.kind == .file else { return nil }
        func same(_ path: String) -> Bool {
            guard let s = try? FileStatus(path) else { return false }
            return s.device == out.device && s.inode == out.inode
        }
        var candidates = files
        for store in stores {
            candidates += ((try? store.paths(ofSize: out.size)) ?? []).map { ($0, "a video the library scanned") }
        }
        return candidates.first { same($0.path) }
    }
}
