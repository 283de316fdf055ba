import Foundation
import GlimtCore
import Library

/// `glimt-pure status`: when the library was last scanned and what that scan could not use,
/// whether a scan is at work now, and what is new since: the videos in the watched folders that
/// the store does not hold as they are (by path, size and time: a walk of `stat` calls, nothing
/// opened or decoded, so a moved video counts as new until a scan recognises it).
public struct LibraryStatus: Codable, Sendable {
    public var library: String
    /// Recordings stored, photos included, and of them the photos.
    public var videos = 0
    public var photos = 0
    public var firstDay: String?
    public var lastDay: String?
    /// Another process holds the library's scan lock now.
    public var scanning = false
    public var lastScan: ScanRecord?
    public var lastMerge: ScanRecord?
    public var watchedFolders: [WatchedFolders.Folder] = []
    /// Where new videos were looked for: the watched folders, else the folders of every scan the
    /// store remembers, the latest first (one mistyped scan must not hide the others' folders).
    public var lookedIn: [String] = []
    /// Video files there that the store does not hold as they are now, nor a remembered scan
    /// passed over (a film of glimt's, a copy of a stored video, a day outside --from/--to).
    public var new: [String] = []
    /// Folders that could not be walked, with why.
    public var unreadable: [ScanRecord.File] = []

    /// The status of `library` (which must exist: a command that only reads creates nothing);
    /// `config` is the settings file with the watched folders (nil: none).
    public static func read(library: URL, config: String?) throws -> LibraryStatus {
        let store = try LibraryStore(library: library, creating: false)
        var status = LibraryStatus(library: library.path)
        status.videos = try store.counts().videos
        status.photos = try store.photoCount()
        let days = try store.days()
        (status.firstDay, status.lastDay) = (days.first, days.last)
        status.scanning = FileLock.isHeld(store.scanLockPath)
        status.lastScan = try store.history(kind: .scan, limit: 1).first
        status.lastMerge = try store.history(kind: .merge, limit: 1).first
        if let config { status.watchedFolders = try WatchedFolders.list(config: config) }
        let scans = try store.history(kind: .scan)
        if status.watchedFolders.isEmpty {
            for scan in scans {
                for input in scan.inputs where !status.lookedIn.contains(input) { status.lookedIn.append(input) }
            }
        } else {
            status.lookedIn = status.watchedFolders.map(\.path)
        }
        let passedOver = Set(scans.flatMap { $0.files.map(\.path) })
        let (files, problems) = VideoFiles.find(status.lookedIn)
        status.unreadable = problems.map { ScanRecord.File(outcome: "failed", path: $0.path, reason: $0.reason) }
        for path in files where !passedOver.contains(path) {
            guard let now = try? FileStatus(path) else { continue }
            if let known = try store.identity(path: path), known.size == now.size, known.modified == now.modified.timeIntervalSince1970 { continue }
            status.new.append(path)
        }
        return status
    }

    /// What the last scan could not use.
    public var failed: [ScanRecord.File] { lastScan?.files.filter { $0.outcome == "failed" } ?? [] }
}
