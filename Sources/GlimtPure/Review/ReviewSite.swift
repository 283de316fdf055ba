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
/// shows any more; it writes nothing outside the folder, and in it only what it can prove it
/// made there (`ReviewFolder`): anything else is named and left alone.
public struct ReviewSite {
    public let folder: URL
    /// The page's own files (PageFiles), by name, and the year pages' skeleton.
    private let files: [String: [UInt8]]
    private let skeleton: ReviewPage

    /// A preview is the chosen second with this much before and after it, so the cut is seen.
    public static let previewMargin = 0.5
    /// Long sides, in pixels: previews play small, thumbnails fill a calendar cell.
    public static let previewSide = 480, thumbSide = 320

    /// Checks the folder before anything is judged: a new one, an empty one, or a review already
    /// (updated in place); another folder only with `overwrite`. Reads the page's own files.
    public init(folder: URL, overwrite: Bool) throws {
        try ReviewFolder.check(folder, overwrite: overwrite)
        self.folder = folder
        files = try PageFiles.load()
        skeleton = try ReviewPage(skeleton: files["review.html"]!)
    }

    public struct Outcome: Sendable {
        public var years: [Int] = []
        public var daysRecorded = 0
        public var candidates = 0
        public var previewsMade = 0
        public var reused = 0
        public var thumbsMade = 0
        /// Videos whose thumbnail or preview could not be made (gone, changed, damaged): their
        /// candidates show without it.
        public var unreadable: [GlimtError] = []
        /// Files where the review needed to write or reuse one of its own, which are not glimt's
        /// (or no longer as it wrote them), left alone: the page goes without them.
        public var inTheWay: [GlimtError] = []
        /// Files of someone else's in the review's folders, left alone.
        public var othersFiles: [GlimtError] = []
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
        /// Its name in the review's folder, e.g. "thumbs/ID.jpg".
        let file: String
        /// A photo's: its preview is the photo's second, pushed as the film shows it.
        var photo = false
    }

    /// Writes the site for the days of `days` in [from, to] (whole years: a year page shows its
    /// year). `command` is what the page tells the person to run with the saved choices.
    public func write(
        days: LibraryDays, from: String?, to: String?, command: String,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> Outcome {
        var outcome = Outcome()
        let withVideo = try days.store.days(from: from, to: to)
        let years = Array(Set(withVideo.compactMap { Int($0.prefix(4)) })).sorted()
        guard !years.isEmpty else {
            throw GlimtError("the library has no videos\(from != nil || to != nil ? " in those days" : "") (add some: glimt-pure scan FOLDER)")
        }
        outcome.years = years
        if let own = try? FileStatus(folder.path), let library = try? FileStatus(days.store.folder.path),
            own.device == library.device && own.inode == library.inode
        {
            throw GlimtError("is the library's own folder, which this run reads; choose another --out", path: folder.path)
        }
        let site = try ReviewFolder(url: folder, reads: days.reads)
        var pictures: [Picture] = []
        var wanted = Set<String>()
        var pages: [(year: Int, data: ReviewData)] = []
        let person = days.lookFor.everyone ? "everyone" : days.lookFor.judged?.name
        for year in years {
            var reports: [String: DayReport] = [:]
            try days.forEachDay(
                from: max(from ?? "0000", String(format: "%04d-01-01", year)), to: min(to ?? "9999", String(format: "%04d-12-31", year))
            ) {
                reports[$0.day] = $0
            }
            var entries: [ReviewData.Day] = []
            var day = String(format: "%04d-01-01", year)
            while day.hasPrefix(String(format: "%04d", year)) {
                let r =
                    reports[day]
                    ?? DayReport(day: day, person: person, status: .noVideo, pick: nil, reason: nil, candidates: [], datedByModificationTime: [])
                entries.append(entry(r, pictures: &pictures, wanted: &wanted, windowLength: days.judgement.rules.windowLength))
                if !r.candidates.isEmpty { outcome.daysRecorded += 1 }
                outcome.candidates += r.candidates.count
                day = CalendarDay.next(day)
            }
            pages.append(
                (
                    year,
                    ReviewData(
                        year: year, years: years, person: person, people: days.lookFor.people.map(\.name),
                        generated: ISO8601DateFormatter().string(from: Date()), command: command, days: entries)
                ))
        }
        // What is there already and glimt's stays: a second that has not changed is not
        // rendered again. A file not glimt's, or no longer as it was written, is not shown.
        var missing: [Picture] = [], unavailable = Set<String>()
        for p in pictures {
            switch site.state(p.file) {
            case .ours: outcome.reused += 1
            case .absent: missing.append(p)
            case .notOurs(let why):
                outcome.inTheWay.append(site.leftAlone(p.file, why))
                unavailable.insert(p.file)
            }
        }
        unavailable.formUnion(try make(missing, in: site, outcome: &outcome, progress: progress))
        for (name, file) in [
            ("assets/palette.css", "palette.css"), ("assets/review.css", "review.css"), ("assets/review.js", "review.js"),
            ("assets/choices.js", "choices.js"),
        ] {
            wanted.insert(name)
            if let e = try site.write(files[file]!, to: name) { outcome.inTheWay.append(e) }
        }
        for page in pages {
            outcome.inTheWay += try writePage(
                page.year, page.data, latest: page.year == years.last, unavailable: unavailable,
                in: site, wanted: &wanted)
        }
        outcome.othersFiles = removeUnwanted(keeping: wanted, in: site)
        try site.finish()
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
                // Each file made once, however many candidates show it.
                if !wanted.contains(thumb!) {
                    pictures.append(
                        Picture(kind: .thumb, video: c.video, start: start + length / 2, length: length, width: w, height: h, file: thumb!))
                    pictures.append(
                        Picture(
                            kind: .preview, video: c.video, start: from, length: min(c.duration - from, start + length + Self.previewMargin - from),
                            width: w, height: h, file: preview!, photo: c.kind.isPhoto))
                }
                wanted.formUnion([thumb!, preview!])
            }
            return ReviewData.Candidate(
                video: c.video, name: URL(fileURLWithPath: c.video).lastPathComponent, duration: c.duration, width: c.width,
                height: c.height, start: start, length: length, score: c.picked ? r.pick?.score ?? c.score : c.score,
                parts: (c.picked ? r.pick?.parts : nil).map(ReviewData.Parts.init) ?? c.parts.map(ReviewData.Parts.init),
                containsPerson: c.containsPerson, excluded: c.excluded, picked: c.picked, kind: c.kind.rawValue, setAside: c.setAside,
                dateSource: c.dateSource.rawValue, thumb: thumb, preview: preview, previewStart: previewStart, crop: c.crop, windows: c.windows)
        }
        let pick = r.pick.map { p in
            ReviewData.Pick(
                candidate: r.candidates.firstIndex { $0.picked }, start: p.start, length: p.length, score: p.score, parts: .init(p.parts),
                crop: p.crop, people: p.people, flaws: p.flaws, passedOver: p.passedOver)
        }
        return ReviewData.Day(day: r.day, status: r.status.rawValue, reason: r.reason, peopleFound: r.peopleFound, pick: pick, candidates: candidates)
    }

    /// Makes thumbnails and previews two at a time (both cores busy); one that cannot be made
    /// leaves its candidate without it, named in `outcome.unreadable` once per video. Returns the
    /// files not made.
    private func make(_ pictures: [Picture], in site: ReviewFolder, outcome: inout Outcome, progress: ((Int, Int) -> Void)?) throws -> Set<String> {
        let lock = NSLock()
        var next = 0, done = 0
        var failed: [String: GlimtError] = [:]
        var inTheWay: [GlimtError] = []
        var notMade = Set<String>()
        var made = (thumbs: 0, previews: 0)
        DispatchQueue.concurrentPerform(iterations: min(2, max(1, pictures.count))) { _ in
            while true {
                lock.lock()
                guard next < pictures.count else { lock.unlock(); return }
                let p = pictures[next]
                next += 1
                let skip = failed[p.video] != nil
                lock.unlock()
                var failure: GlimtError?, leftAlone: GlimtError?
                if !skip {
                    do {
                        switch p.kind {
                        case .thumb:
                            let jpeg = try StillImage.jpegData(Resize.fitting(try StillFrame.at(p.start, in: p.video), longSide: Self.thumbSide))
                            leftAlone = try site.write(jpeg, to: p.file)
                        case .preview:
                            var film = FilmOptions()
                            (film.width, film.height, film.audio, film.caption, film.seconds) = (p.width, p.height, false, .none, p.length)
                            // Marked like every film glimt makes (FilmRenderer): a scan of this folder never takes a preview for a video.
                            let info = try StillFrame.size(of: p.video)
                            let whole = Box(x: 0, y: 0, width: Float(info.width), height: Float(info.height))
                            leftAlone = try site.make(p.file) {
                                try FilmRenderer(options: film).render(
                                    [FilmSegment(day: "", video: p.video, start: p.start, crop: whole, photo: p.photo ? true : nil)], to: $0)
                            }
                        }
                    } catch {
                        failure = (error as? GlimtError)?.at(p.video) ?? GlimtError("\(error)", path: p.video)
                    }
                }
                lock.lock()
                if let failure, failed[p.video] == nil { failed[p.video] = failure }
                if let leftAlone { inTheWay.append(leftAlone) }
                if skip || failure != nil || leftAlone != nil {
                    notMade.insert(p.file)
                } else if p.kind == .thumb {
                    made.thumbs += 1
                } else {
                    made.previews += 1
                }
                done += 1
                progress?(done, pictures.count)
                lock.unlock()
            }
        }
        outcome.thumbsMade = made.thumbs
        outcome.previewsMade = made.previews
        outcome.unreadable = failed.keys.sorted().map { failed[$0]! }
        outcome.inTheWay += inTheWay
        return notMade
    }

    /// A year's data and page (and index.html for the latest year); the files left alone.
    private func writePage(
        _ year: Int, _ data: ReviewData, latest: Bool, unavailable: Set<String>, in site: ReviewFolder,
        wanted: inout Set<String>
    ) throws -> [GlimtError] {
        var data = data
        // A thumbnail or preview that is not there, or not glimt's, is not shown.
        for d in data.days.indices {
            for c in data.days[d].candidates.indices {
                if let thumb = data.days[d].candidates[c].thumb, unavailable.contains(thumb) { data.days[d].candidates[c].thumb = nil }
                if let preview = data.days[d].candidates[c].preview, unavailable.contains(preview) {
                    data.days[d].candidates[c].preview = nil
                    data.days[d].candidates[c].previewStart = nil
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A script, not JSON: a page from file:// cannot fetch a file beside it.
        let json = String(decoding: try encoder.encode(data), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        let html = Array(skeleton.html(year: year, person: data.person).utf8)
        var leftAlone: [GlimtError] = []
        for (name, bytes) in [("data/\(year).js", Array("window.GLIMT_REVIEW = \(json);\n".utf8)), ("\(year).html", html)]
            + (latest ? [("index.html", html)] : [])
        {
            wanted.insert(name)
            if let e = try site.write(bytes, to: name) { leftAlone.append(e) }
        }
        return leftAlone
    }

    /// Thumbnails and previews no day shows any more (a pin moved, a video excluded): glimt's own,
    /// as it wrote them. Returns a line for each file of someone else's in the review's folders.
    private func removeUnwanted(keeping wanted: Set<String>, in site: ReviewFolder) -> [GlimtError] {
        var others: [GlimtError] = []
        for sub in ReviewFolder.subfolders {
            for name in site.names(in: sub) where !wanted.contains("\(sub)/\(name)") {
                let relative = "\(sub)/\(name)"
                switch site.state(relative) {
                case .absent: break
                // Another year's page and data stay, for a review of some years only.
                case .ours: if sub == "thumbs" || sub == "previews", let e = site.remove(relative) { others.append(e) }
                case .notOurs(let why): others.append(site.leftAlone(relative, why))
                }
            }
        }
        return others
    }
}
