import Foundation
import GlimtCore

/// Bringing another library's analyses into this store (`glimt-pure merge`): libraries filled
/// by workers on other machines, each scanning one shard, become one. Videos are recognised by
/// content key, so a video in both is kept once and a merge done twice adds nothing.
extension LibraryStore {
    /// What a merge did.
    public struct MergeSummary: Codable, Sendable {
        public var added = 0
        public var frames = 0
        public var faces = 0
        /// Videos this store already had (by content), kept as they are here.
        public var alreadyHere = 0
        /// Of those added, the paths `--path-map` rewrote.
        public var pathsMapped = 0
        /// Of those added, stored instead of this store's video at the same path (the file there
        /// now is theirs: same size and time).
        public var replaced = 0
        /// Videos not brought in, each with why.
        public var leftOut: [LeftOut] = []
        /// With the choices: pins, excluded days and excluded videos brought in, and those left
        /// out (a person this library does not know; a day this library has its own pin for).
        public var pins = 0
        public var excludedDays = 0
        public var excludedVideos = 0
        public var choicesLeftOut = 0

        public struct LeftOut: Codable, Sendable {
            public var path: String
            public var reason: String
        }

        public var changedAnything: Bool { added > 0 || pins > 0 || excludedDays > 0 || excludedVideos > 0 }
    }

    /// Opens another library's store to read only: nothing of it is written, not even a
    /// migration, so its version must be this glimt's.
    public convenience init(readingOnly folder: URL) throws {
        try LibraryFolder.existing(folder, holding: "library.sqlite", madeBy: "scan a folder into it first: glimt-pure scan FOLDER")
        let path = folder.appendingPathComponent("library.sqlite").path
        try Schema.checkBeforeWriting(path)
        let db = try Database(readingOnly: path)
        let found = try db.rows("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard found == Schema.version else {
            throw GlimtError(
                "this library's store is version \(found) and this glimt's is \(Schema.version): bring it up to date first "
                    + "(any command of this glimt that opens it does, e.g. glimt-pure status --library \(ShownPath.escaped(folder.path)))", path: path
            )
        }
        self.init(folder: folder, database: db)
    }

    /// Brings `other`'s videos, frames and faces (with how each was observed, its notes, and a
    /// day set by hand on it, which its stored day already is) into this store in one
    /// transaction. Every column comes as it is but the video's row id: a frame is known by its
    /// video and place in it, and a followed face points to the face it borrows from by frames
    /// back and place in that frame, within its video, so the pointers hold in the new video. `mapPath` rewrites the other store's paths (a NAS mounted elsewhere);
    /// `fileNow` tells the size and time of a file as it is now, to settle a path both stores
    /// hold with different content. `people` maps the other library's person ids to this one's,
    /// for its choices (pins, excluded days) when `choices`; excluded videos belong to everyone.
    public func merge(
        from other: LibraryStore, mapPath: (String) -> String?, fileNow: (String) -> (size: Int64, modified: Double)?,
        choices: Bool, people: [Int: Int]
    ) throws -> MergeSummary {
        var summary = MergeSummary()
        try locked {
            try other.locked {
                // One read transaction on the other store: a consistent snapshot, even while a
                // scan writes to it.
                try other.db.execute("BEGIN")
                defer { try? other.db.execute("COMMIT") }
                let videoColumns = try db.rows("PRAGMA table_info(videos)") { $0.text(1) }.filter { $0 != "id" }
                let frameColumns = try db.rows("PRAGMA table_info(frames)") { $0.text(1) }.filter { $0 != "video_id" }
                let faceColumns = try db.rows("PRAGMA table_info(faces)") { $0.text(1) }.filter { $0 != "video_id" }
                let keyColumn = Int32(videoColumns.firstIndex(of: "content_key")!), pathColumn = videoColumns.firstIndex(of: "path")!
                let sizeColumn = Int32(videoColumns.firstIndex(of: "size")!), modifiedColumn = Int32(videoColumns.firstIndex(of: "modified")!)
                func list(_ names: [String]) -> String { names.joined(separator: ", ") }
                func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }
                try db.transaction {
                    let insertVideo = try db.prepare("INSERT INTO videos (\(list(videoColumns))) VALUES (\(marks(videoColumns.count)))")
                    let insertFrame = try db.prepare("INSERT INTO frames (video_id, \(list(frameColumns))) VALUES (?, \(marks(frameColumns.count)))")
                    let insertFace = try db.prepare("INSERT INTO faces (video_id, \(list(faceColumns))) VALUES (?, \(marks(faceColumns.count)))")
                    let theirs = try other.db.rows("SELECT id, \(list(videoColumns)) FROM videos ORDER BY content_key") { s in
                        (
                            Int64(s.int(0)), (0..<Int32(videoColumns.count)).map { s.value($0 + 1) },
                            s.text(keyColumn + 1), s.text(Int32(pathColumn) + 1), Int64(s.int(sizeColumn + 1)), s.double(modifiedColumn + 1)
                        )
                    }
                    for (otherID, values, key, storedPath, size, modified) in theirs {
                        if try db.rows("SELECT 1 FROM videos WHERE content_key = ?", [.of(key)], { _ in true }).first != nil {
                            summary.alreadyHere += 1
                            continue
                        }
                        let mapped = mapPath(storedPath)
                        let path = mapped ?? storedPath
                        if let ours = try db.rows("SELECT content_key FROM videos WHERE path = ?", [.of(path)], { $0.text(0) }).first {
                            // Both stores have this path, with different content: the file there
                            // now says which is current.
                            guard let now = fileNow(path), now.size == size, now.modified == modified else {
                                summary.leftOut.append(
                                    .init(
                                        path: path,
                                        reason:
                                            "this library holds another video at this path (content \(ours.prefix(8))...; the file there now is not the other library's)"
                                    ))
                                continue
                            }
                            try db.run("DELETE FROM videos WHERE content_key = ?", [.of(ours)])
                            summary.replaced += 1
                        }
                        var row = values
                        row[pathColumn] = .text(path)
                        try insertVideo.bind(row)
                        while try insertVideo.step() {}
                        let id = db.lastInsertedRow
                        for frame in try other.db.rows(
                            "SELECT \(list(frameColumns)) FROM frames WHERE video_id = ? ORDER BY idx", [.int(otherID)],
                            { s in
                                (0..<Int32(frameColumns.count)).map { s.value($0) }
                            })
                        {
                            try insertFrame.bind([.int(id)] + frame)
                            while try insertFrame.step() {}
                            summary.frames += 1
                        }
                        for face in try other.db.rows(
                            "SELECT \(list(faceColumns)) FROM faces WHERE video_id = ? ORDER BY frame_idx, idx", [.int(otherID)],
                            { s in
                                (0..<Int32(faceColumns.count)).map { s.value($0) }
                            })
                        {
                            try insertFace.bind([.int(id)] + face)
                            while try insertFace.step() {}
                            summary.faces += 1
                        }
                        // A day set by hand is the video's stored day already; it travels with it
                        // so that 'date clear' and later scans know it for what it is.
                        for (day, time) in try other.db.rows(
                            "SELECT day, time FROM set_dates WHERE content_key = ?", [.of(key)], { ($0.text(0), $0.optionalText(1)) })
                        {
                            try db.run(
                                "INSERT OR IGNORE INTO set_dates (content_key, day, time, path) VALUES (?, ?, ?, ?)",
                                [.of(key), .of(day), .of(time), .of(path)])
                        }
                        summary.added += 1
                        if mapped != nil && mapped != storedPath { summary.pathsMapped += 1 }
                    }
                    guard choices else { return }
                    for (person, day, key, start) in try other.db.rows(
                        "SELECT person_id, day, content_key, start FROM pins ORDER BY person_id, day", [],
                        {
                            ($0.int(0), $0.text(1), $0.text(2), $0.double(3))
                        })
                    {
                        guard let here = people[person],
                            try db.rows("SELECT 1 FROM pins WHERE person_id = ? AND day = ?", [.of(here), .of(day)], { _ in true }).isEmpty
                        else {
                            summary.choicesLeftOut += 1
                            continue
                        }
                        try db.run(
                            "INSERT INTO pins (person_id, day, content_key, start) VALUES (?, ?, ?, ?)", [.of(here), .of(day), .of(key), .of(start)])
                        summary.pins += 1
                    }
                    for (person, day) in try other.db.rows(
                        "SELECT person_id, day FROM excluded_days ORDER BY person_id, day", [], { ($0.int(0), $0.text(1)) })
                    {
                        guard let here = people[person] else {
                            summary.choicesLeftOut += 1
                            continue
                        }
                        guard
                            try db.rows("SELECT 1 FROM excluded_days WHERE person_id = ? AND day = ?", [.of(here), .of(day)], { _ in true }).isEmpty
                        else { continue }
                        try db.run("INSERT INTO excluded_days (person_id, day) VALUES (?, ?)", [.of(here), .of(day)])
                        summary.excludedDays += 1
                    }
                    for (key, path) in try other.db.rows(
                        "SELECT content_key, path FROM excluded_videos ORDER BY content_key", [], { ($0.text(0), $0.text(1)) })
                    {
                        guard try db.rows("SELECT 1 FROM excluded_videos WHERE content_key = ?", [.of(key)], { _ in true }).isEmpty else { continue }
                        try db.run("INSERT INTO excluded_videos (content_key, path) VALUES (?, ?)", [.of(key), .of(mapPath(path) ?? path)])
                        summary.excludedVideos += 1
                    }
                }
            }
        }
        return summary
    }
}
