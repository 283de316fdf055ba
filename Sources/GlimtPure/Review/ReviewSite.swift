import Analysis
import Film
import Foundation
import GlimtCore
import Imaging
import Library

/// `glimt-pure review --out DIR`: the library's days as a static site a person opens from
/// `file://` in any browser, to look at every candidate second, play it, and choose (the page
/// downloads the choices; `pick --apply` takes them). One page per year, each day's candidates
/// with a thumbnail and a short preview made by the film's own renderer (its decoder, tone map
/// and orientation: what plays is what the film shows). Written again into the same folder, it
/// reuses every thumbnail and preview whose second has not changed, and removes those no day
/// shows any more; it writes nothing outside the folder and nothing else in it.
public struct ReviewSite {
    public let folder: URL

    /// The file that says a folder holds a review (so writing into it again is updating it).
    static let marker = ".glimt-review"
    /// A preview is the chosen second with this much before and after it, so the cut is seen.
    public static let previewMargin = 0.5
    /// Long sides, in pixels: previews play small, thumbnails fill a calendar cell.
    public static let previewSide = 480, thumbSide = 320

    /// Checks the folder before anything is judged: a new one, an empty one, or a review already
    /// (updated in place); another folder only with `overwrite`.
    public init(folder: URL, overwrite: Bool) throws {
        if let status = try? FileStatus(folder.path) {
            guard status.kind == .folder else { throw GlimtError("is not a folder; give a folder for the review (--out DIR)", path: folder.path) }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if !entries.isEmpty && !entries.contains(Self.marker) && !overwrite {
                throw GlimtError("is not empty and holds no glimt review; give a new or empty folder, or add -y to write the review into it", path: folder.path)
            }
        } else {
            let parent = folder.deletingLastPathComponent().path
            guard (try? FileStatus(parent))?.kind == .folder else { throw GlimtError("the folder for the review is in a folder that does not exist", path: folder.path) }
        }
        guard access(folder.deletingLastPathComponent().path, W_OK | X_OK) == 0 || FileManager.default.fileExists(atPath: folder.path) else {
            throw GlimtError("cannot write into its folder (\(FileStatus.reason(errno)))", path: folder.path)
        }
        self.folder = folder
    }

    public struct Outcome: Sendable {
        public var years: [Int] = []
        public var daysWithVideo = 0
        public var candidates = 0
        public var previewsMade = 0
        public var reused = 0
        public var thumbsMade = 0
        /// Videos whose thumbnail or preview could not be made (gone, changed, damaged): their
        /// candidates show without it.
        public var unreadable: [GlimtError] = []
    }

    /// A thumbnail or preview to make: for which second of which video, and where it goes.
    private struct Picture {
        enum Kind { case thumb, preview }
        let kind: Kind
        let video: String
        let start: Double
        let length: Double
        let width: Int
        let height: Int
        let file: URL
    }

    /// Writes the site for the days of `days` in [from, to] (whole years: a year page shows its
    /// year). `command` is what the page tells the person to run with the saved choices.
    public func write(days: LibraryDays, from: String?, to: String?, command: String,
                      progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> Outcome {
        var outcome = Outcome()
        let withVideo = try days.store.days(from: from, to: to)
        let years = Array(Set(withVideo.compactMap { Int($0.prefix(4)) })).sorted()
        guard !years.isEmpty else {
            throw GlimtError("the library has no videos\(from != nil || to != nil ? " in those days" : "") (add some: glimt-pure scan FOLDER)")
        }
        outcome.years = years
        for sub in ["assets", "data", "thumbs", "previews"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub, isDirectory: true), withIntermediateDirectories: true)
        }
        try AtomicFile.write(Array("glimt-pure review: this folder is written by 'glimt-pure review'\n".utf8), to: folder.appendingPathComponent(Self.marker).path)
        var pictures: [Picture] = []
        var wanted = Set<String>()
        var pages: [(year: Int, data: ReviewData)] = []
        let person = days.lookFor.everyone ? "everyone" : days.lookFor.judged?.name
        for year in years {
            var reports: [String: DayReport] = [:]
            try days.forEachDay(from: max(from ?? "0000", String(format: "%04d-01-01", year)), to: min(to ?? "9999", String(format: "%04d-12-31", year))) {
                reports[$0.day] = $0
            }
            var entries: [ReviewData.Day] = []
            var day = String(format: "%04d-01-01", year)
            while day.hasPrefix(String(format: "%04d", year)) {
                let r = reports[day] ?? DayReport(day: day, person: person, status: .noVideo, pick: nil, reason: nil, candidates: [], datedByModificationTime: [])
                entries.append(entry(r, pictures: &pictures, wanted: &wanted, windowLength: days.judgement.rules.windowLength))
                if !r.candidates.isEmpty { outcome.daysWithVideo += 1 }
                outcome.candidates += r.candidates.count
                day = CalendarDay.next(day)
            }
            pages.append((year, ReviewData(year: year, years: years, person: person, people: days.lookFor.people.map(\.name),
                                           generated: ISO8601DateFormatter().string(from: Date()), command: command, days: entries)))
        }
        // What is there already stays: a second that has not changed is not rendered again.
        let missing = pictures.filter { !FileManager.default.fileExists(atPath: $0.file.path) }
        outcome.reused = pictures.count - missing.count
        try make(missing, outcome: &outcome, progress: progress)
        for page in pages { try writePage(page.year, page.data, latest: page.year == years.last) }
        try removeUnwanted(keeping: wanted)
        return outcome
    }

    /// A day as the page shows it, naming the thumbnails and previews it needs.
    private func entry(_ r: DayReport, pictures: inout [Picture], wanted: inout Set<String>, windowLength: Double) -> ReviewData.Day {
        let candidates = r.candidates.map { c -> ReviewData.Candidate in
            var thumb: String?, preview: String?, previewStart: Double?
            // A pinned candidate shows its pinned second.
            let start = c.picked ? r.pick?.start ?? c.start : c.start
            let length = c.picked ? r.pick?.length ?? windowLength : windowLength
            if let start {
                let id = "\(c.contentKey.prefix(16))-\(Int((start * 1000).rounded()))-\(Int((length * 1000).rounded()))"
                let from = max(0, start - Self.previewMargin)
                let long = Double(max(c.width, c.height, 1)), scale = Double(Self.previewSide) / long
                let (w, h) = (max(16, Int((Double(c.width) * scale / 2).rounded()) * 2), max(16, Int((Double(c.height) * scale / 2).rounded()) * 2))
                thumb = "thumbs/\(id).jpg"
                preview = "previews/\(id).mp4"
                previewStart = from
                pictures.append(Picture(kind: .thumb, video: c.video, start: start + length / 2, length: length, width: w, height: h, file: folder.appendingPathComponent(thumb!)))
                pictures.append(Picture(kind: .preview, video: c.video, start: from, length: min(c.duration - from, start + length + Self.previewMargin - from),
                                        width: w, height: h, file: folder.appendingPathComponent(preview!)))
                wanted.formUnion([thumb!, preview!])
            }
            return ReviewData.Candidate(video: c.video, name: URL(fileURLWithPath: c.video).lastPathComponent, duration: c.duration, width: c.width,
                                        height: c.height, start: start, length: length, score: c.picked ? r.pick?.score ?? c.score : c.score,
                                        parts: (c.picked ? r.pick?.parts : nil).map(ReviewData.Parts.init) ?? c.parts.map(ReviewData.Parts.init),
                                        containsPerson: c.containsPerson, excluded: c.excluded, picked: c.picked, kind: c.kind.rawValue, setAside: c.setAside,
                                        dateSource: c.dateSource.rawValue, thumb: thumb, preview: preview, previewStart: previewStart, crop: c.crop, windows: c.windows)
        }
        let pick = r.pick.map { p in
            ReviewData.Pick(candidate: r.candidates.firstIndex { $0.picked }, start: p.start, length: p.length, score: p.score, parts: .init(p.parts),
                            crop: p.crop, people: p.people)
        }
        return ReviewData.Day(day: r.day, status: r.status.rawValue, reason: r.reason, peopleFound: r.peopleFound, pick: pick, candidates: candidates)
    }

    /// Makes thumbnails and previews two at a time (both cores busy); one that cannot be made
    /// leaves its candidate without it, named in `outcome.unreadable` once per video.
    private func make(_ pictures: [Picture], outcome: inout Outcome, progress: ((Int, Int) -> Void)?) throws {
        let lock = NSLock()
        var next = 0, done = 0
        var failed: [String: GlimtError] = [:]
        var made = (thumbs: 0, previews: 0)
        DispatchQueue.concurrentPerform(iterations: min(2, max(1, pictures.count))) { _ in
            while true {
                lock.lock()
                guard next < pictures.count else { lock.unlock(); return }
                let p = pictures[next]
                next += 1
                let skip = failed[p.video] != nil
                lock.unlock()
                var failure: GlimtError?
                if !skip {
                    do {
                        switch p.kind {
                        case .thumb:
                            try StillImage.writeJPEG(Resize.fitting(try StillFrame.at(p.start, in: p.video), longSide: Self.thumbSide), to: p.file.path)
                        case .preview:
                            var film = FilmOptions()
                            (film.width, film.height, film.audio, film.caption, film.seconds) = (p.width, p.height, false, .none, p.length)
                            let info = try StillFrame.size(of: p.video)
                            let whole = Box(x: 0, y: 0, width: Float(info.width), height: Float(info.height))
                            try FilmRenderer(options: film).render([FilmSegment(day: "", video: p.video, start: p.start, crop: whole)], to: p.file.path)
                        }
                    } catch {
                        failure = (error as? GlimtError)?.at(p.video) ?? GlimtError("\(error)", path: p.video)
                    }
                }
                lock.lock()
                if let failure, failed[p.video] == nil { failed[p.video] = failure }
                if failure == nil && !skip { if p.kind == .thumb { made.thumbs += 1 } else { made.previews += 1 } }
                done += 1
                progress?(done, pictures.count)
                lock.unlock()
            }
        }
        outcome.thumbsMade = made.thumbs
        outcome.previewsMade = made.previews
        outcome.unreadable = failed.keys.sorted().map { failed[$0]! }
    }

    private func writePage(_ year: Int, _ data: ReviewData, latest: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A script, not JSON: a page from file:// cannot fetch a file beside it.
        let json = String(decoding: try encoder.encode(data), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        try AtomicFile.write(Array("window.GLIMT_REVIEW = \(json);\n".utf8), to: folder.appendingPathComponent("data/\(year).js").path)
        for (name, text) in [("assets/review.css", ReviewStyle.css), ("assets/review.js", ReviewScript.js), ("assets/choices.js", ReviewChoicesScript.js)] {
            try AtomicFile.write(Array(text.utf8), to: folder.appendingPathComponent(name).path)
        }
        let html = Array(ReviewPage.html(year: year, person: data.person).utf8)
        try AtomicFile.write(html, to: folder.appendingPathComponent("\(year).html").path)
        if latest { try AtomicFile.write(html, to: folder.appendingPathComponent("index.html").path) }
    }

    /// Thumbnails and previews no day shows any more (a pin moved, a video excluded): only files
    /// of the review's own naming, in its own folders.
    private func removeUnwanted(keeping wanted: Set<String>) throws {
        for sub in ["thumbs", "previews"] {
            let dir = folder.appendingPathComponent(sub)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where !wanted.contains("\(sub)/\(name)") {
                guard name.hasSuffix(sub == "thumbs" ? ".jpg" : ".mp4"), name.split(separator: "-").count == 3 else { continue }
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            }
        }
    }
}
