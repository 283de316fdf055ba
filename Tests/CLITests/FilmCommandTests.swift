import Foundation
import GlimtPure
import MediaIO
import TestSupport
import XCTest

/// `glimt-pure analyze` and `glimt-pure film`: saved picks re-rendered, killed renders.
final class FilmCommandTests: CLITestCase {
    /// What the film needs is checked before any analysis starts: one line, the right exit
    /// status, nothing analysed (a whole folder of video is given, and no progress appears).
    func testFilmSettingsAreCheckedBeforeTheAnalysis() throws {
        let videos = fixture("analysis")
        let out = ["--out", library.appendingPathComponent("film.mp4").path]
        let song = library.appendingPathComponent("song.mp4").path
        let cases: [([String], Int32, String)] = [
            ([], 64, "'film' needs --out FILE (the film to write, .mp4 or .m4v)"),
            (["--out", "--mute"], 64, "option --out needs a value, and '--mute' is an option"),
            (["--size", "8192x8192"], 64, "film size 8192x8192 is larger than H.264 allows"),
            (["--size", "181x320"], 64, "film size must be even numbers from 16 to 8192"),
            (["--fps", "0"], 64, "--fps must be a whole number in 1...120, not '0'"),
            (["--from", "2024-02-30"], 64, "'2024-02-30' is not a calendar day"),
            (["--from", "2024-13-45"], 64, "'2024-13-45' is not a calendar day"),
            (["--from", "2024-05-02", "--to", "2024-05-01"], 64, "--from 2024-05-02 is after --to 2024-05-01"),
            (
                ["--out", library.appendingPathComponent("no/such/folder/film.mp4").path], 1,
                "--out \(library.appendingPathComponent("no/such/folder/film.mp4").path): the folder for the film does not exist"
            ),
            (["--out", library.appendingPathComponent("folder.mp4").path], 1, "is a folder; give a file name"),
            (["--out", library.appendingPathComponent("film.mov").path], 1, "the film is written as .mp4 or .m4v, and this name ends in '.mov'"),
            (["--music-level", "3"], 64, "--music-level must be a number in -60...0, not '3'"),
            (
                ["--music", library.appendingPathComponent("song.mp3").path], 1,
                "--music \(library.appendingPathComponent("song.mp3").path): no such file"
            ),
            (["--music", fixture("moment/two_shots.mp4")], 1, "--music \(fixture("moment/two_shots.mp4")): has no sound to play"),
            (["--music", fixture("yunet/obama.png")], 1, "--music \(fixture("yunet/obama.png")): not a sound file (it reads as"),
            (["--music", song, "--out", song, "-y"], 1, "is music for the film (\(song)), which this run reads; choose another --out"),
        ]
        try FileManager.default.copyItem(atPath: fixture("moment/speech.mp4"), toPath: song)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("folder.mp4"), withIntermediateDirectories: true)
        for (options, status, message) in cases {
            let started = Date()
            let run = try glimt(["film", videos, "--no-refs"] + options + (options.contains("--out") || options.isEmpty ? [] : out))
            XCTAssertEqual(run.status, status, "\(options): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(options): \(run.err)")
            XCTAssertTrue(run.err.contains(message), "\(options): \(run.err)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(options) refused before analysing")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: song)), try Data(contentsOf: URL(fileURLWithPath: fixture("moment/speech.mp4"))))
    }

    /// A film made without a file that could not be read is still a film: exit 0, the file named.
    func testAFilmWrittenDespiteABadFileExitsZeroAndNamesIt() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: folder.appendingPathComponent("good.mp4").path)
        try "not a video".write(to: folder.appendingPathComponent("bad.mp4"), atomically: true, encoding: .utf8)
        let out = library.appendingPathComponent("film.mp4").path
        let run = try glimt("film", folder.path, "--no-refs", "--out", out, "--size", "180x320", "--mute", "-q")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        XCTAssertTrue(run.err.contains("\(folder.appendingPathComponent("bad.mp4").path): not a photo or video"), run.err)
        XCTAssertTrue(run.err.contains("the film was made without 1 file"), run.err)
    }

    /// The output can never be one of the inputs, even with -y, so a film run twice in the same
    /// folder neither replaces a video nor reads its own first film back.
    func testTheOutputIsNeverOneOfTheInputs() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("podium.mp4")
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: video.path)
        let before = try Data(contentsOf: video)
        let run = try glimt("film", folder.path, "--no-refs", "--out", video.path, "-y")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.err.contains("is one of the videos the film is made from"), run.err)
        XCTAssertEqual(try Data(contentsOf: video), before, "the video is untouched")
    }

    /// From the library too, the film never replaces a video it scanned, even with -y: refused in
    /// one line before anything is decoded, the video untouched.
    func testTheLibrarysFilmNeverReplacesAScannedVideo() throws {
        let videos = library.appendingPathComponent("videos")
        let video = try GeneratedClips.write(to: videos.path)[2]
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: video))
        let run = try glimt("film", "--no-refs", "--out", video, "-y", "--size", "180x320", "--mute")
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertEqual(run.err, "glimt-pure film: \(video): is a video the library scanned (\(video)), which this run reads; choose another --out\n")
        XCTAssertEqual(run.out, "", "nothing rendered")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: video)), before, "the video is untouched")
    }

    /// The library's film checks that each video it cuts from is still the content the library
    /// analysed: one replaced by another of the same size and time, or of another size, or gone,
    /// is left out with one line saying so (not blaming the pick), and the film is made from the
    /// others. The sheets say the same of the frames they would draw.
    func testAVideoChangedSinceItsScanIsLeftOutWithALine() throws {
        let fm = FileManager.default
        let videos = library.appendingPathComponent("videos")
        let clips = try GeneratedClips.write(to: videos.path)
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
        let film = ["--no-refs", "--out", library.appendingPathComponent("film.mp4").path, "--size", "180x320", "--mute", "-q", "-y"]
        let changed = { (path: String) in "\(path): changed since it was scanned (its content differs); scan again: glimt-pure scan FOLDER" }
        // 05-02's only video, its pictures changed in place: the same size, its time put back.
        let swapped = URL(fileURLWithPath: clips[2])
        let modified = try XCTUnwrap(fm.attributesOfItem(atPath: swapped.path)[.modificationDate] as? Date)
        var bytes = [UInt8](try Data(contentsOf: swapped))
        let mdat = try XCTUnwrap(HostileCorpusTests.topLevelBox("mdat", in: bytes))
        for i in (mdat + 16)..<(mdat + 400) { bytes[i] ^= 0x5a }
        try Data(bytes).write(to: swapped)
        try fm.setAttributes([.modificationDate: modified], ofItemAtPath: swapped.path)
        let same = try glimt(["film"] + film)
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertEqual(
            same.err.split(separator: "\n").map(String.init),
            ["glimt-pure film: \(changed(swapped.path))", "glimt-pure film: the film was made without 1 file that could not be read (named above)"])
        XCTAssertTrue(same.out.contains("2 days"), same.out)
        XCTAssertFalse(same.out.contains("2024-05-02"), same.out)
        // Another video under its name (another size): the same line, not the crop's.
        try fm.removeItem(at: swapped)
        try fm.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: swapped.path)
        let other = try glimt(["film"] + film)
        XCTAssertEqual(other.status, 0, other.err)
        XCTAssertTrue(other.err.hasPrefix("glimt-pure film: \(changed(swapped.path))\n"), other.err)
        XCTAssertFalse(other.err.contains("crop"), other.err)
        // Gone: said so.
        try fm.removeItem(at: swapped)
        let gone = try glimt(["film"] + film)
        XCTAssertEqual(gone.status, 0, gone.err)
        XCTAssertTrue(
            gone.err.hasPrefix("glimt-pure film: \(swapped.path): gone since it was scanned; scan again: glimt-pure scan FOLDER\n"), gone.err)
        // The sheets draw no frame of another video either.
        try fm.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: swapped.path)
        let show = try glimt("show", "2024-05-02", "--no-refs", "--sheet", library.appendingPathComponent("day.jpg").path)
        XCTAssertEqual(show.status, 1, show.err)
        XCTAssertEqual(show.err, "glimt-pure show: \(changed(swapped.path))\n")
        let calendar = try glimt("calendar", "--no-refs", "--sheet", library.appendingPathComponent("year.jpg").path, "-q")
        XCTAssertEqual(calendar.status, 1, calendar.err)
        XCTAssertEqual(calendar.err, "glimt-pure calendar: \(changed(swapped.path))\n")
    }

    /// A film saved among the videos (into a scanned folder, or the folder a film is made from)
    /// is never read back as a video of the day it was made: every film glimt writes carries a
    /// mark, and scans, analyses and folder films skip a marked file with one line (with -q
    /// too), exiting 0. A copy under another name or extension is still the film.
    func testAFilmSavedAmongTheVideosIsNeverReadBack() throws {
        let videos = library.appendingPathComponent("videos")
        try GeneratedClips.write(to: videos.path)
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
        let saved = videos.appendingPathComponent("our film.mp4")
        let made = try glimt("film", "--no-refs", "--out", saved.path, "--size", "180x320", "--mute", "-q")
        XCTAssertEqual(made.status, 0, made.err)
        let copy = videos.appendingPathComponent("sub/copy.mov")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: saved, to: copy)
        let skipped = { (command: String, path: URL) in "glimt-pure \(command): \(path.path): a film made by glimt-pure \(Glimt.version); skipped" }
        let scan = try glimt("scan", videos.path, "--timezone", "UTC", "-q")
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertEqual(scan.err.split(separator: "\n").map(String.init).sorted(), [skipped("scan", copy), skipped("scan", saved)].sorted())
        XCTAssertTrue(scan.out.hasPrefix("6 videos found: 0 analysed, 4 unchanged"), scan.out)
        let days = try JSONSerialization.jsonObject(with: Data(try glimt("days", "--no-refs", "--json").out.utf8)) as! [[String: Any]]
        XCTAssertEqual(days.map { $0["day"] as! String }, ["2024-05-01", "2024-05-02", "2024-05-03"], "no day of the film's making")
        for (command, extra) in [
            ("analyze", ["--no-refs", "-q"]),
            ("film", ["--no-refs", "--out", library.appendingPathComponent("again.mp4").path, "--size", "180x320", "--mute", "-q"]),
        ] {
            let run = try glimt([command, videos.path, "--timezone", "UTC"] + extra)
            XCTAssertEqual(run.status, 0, "\(command): \(run.err)")
            XCTAssertTrue(run.err.contains(skipped(command, saved)), "\(command): \(run.err)")
            XCTAssertFalse(run.out.contains("our film"), "\(command): \(run.out)")
        }
    }

    /// No output of any command (a film, a sheet) replaces a file the run or the library reads:
    /// the store and its WAL, the reference list and thumbnails, a reference photo, a picks
    /// file, a scanned video, whether named directly or through a symbolic or hard link.
    func testNoOutputReplacesAFileTheLibraryOrTheRunReads() throws {
        let fm = FileManager.default
        let videos = library.appendingPathComponent("videos")
        let clips = try GeneratedClips.write(to: videos.path)
        let store = library.appendingPathComponent("glimt")
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
        let photo = library.appendingPathComponent("me.png").path
        try fm.copyItem(atPath: fixture("yunet/obama.png"), toPath: photo)
        XCTAssertEqual(try glimt("reference", "add", photo).status, 0)
        let picks = library.appendingPathComponent("picks.json").path
        let analysis = try glimt("analyze", clips[0], "--no-refs", "--json", "--timezone", "UTC")
        try Data(analysis.out.utf8).write(to: URL(fileURLWithPath: picks))
        // A store whose WAL was left full (a scan's process ended with it open) is checkpointed by
        // the next run that closes it: that run's writing, not an output's. One reading run first,
        // so the bytes compared below are the store at rest.
        XCTAssertEqual(try glimt("days", "-q").status, 0)
        let links = library.appendingPathComponent("links")
        try fm.createDirectory(at: links, withIntermediateDirectories: true)
        var n = 0
        /// A new name in `links` for `target`, ending in `ext`: a symbolic link, or a hard link.
        func link(_ target: String, _ ext: String, hard: Bool = false) throws -> String {
            n += 1
            let path = links.appendingPathComponent("out\(n).\(ext)").path
            if hard { try fm.linkItem(atPath: target, toPath: path) } else { try fm.createSymbolicLink(atPath: path, withDestinationPath: target) }
            return path
        }
        let sqlite = store.appendingPathComponent("library.sqlite").path
        let film = ["--size", "180x320", "--mute", "-y", "-q"]
        let cases: [(args: [String], target: String, what: String)] = [
            (["film", "--out", try link(sqlite, "mp4")] + film, sqlite, "one of the library's own files"),
            (["film", "--out", try link(sqlite, "mp4", hard: true)] + film, sqlite, "one of the library's own files"),
            // The WAL exists while the film's own connection to the store is open.
            (["film", "--out", try link(sqlite + "-wal", "mp4")] + film, sqlite + "-wal", "one of the library's own files"),
            (
                ["film", "--out", try link(store.appendingPathComponent("references.json").path, "mp4")] + film,
                store.appendingPathComponent("references.json").path, "one of the library's own files"
            ),
            (
                ["film", "--out", try link(store.appendingPathComponent("references/reference-1.png").path, "mp4")] + film,
                store.appendingPathComponent("references/reference-1.png").path, "one of the library's own files"
            ),
            (["film", "--out", try link(photo, "mp4")] + film, photo, "a reference photo the library lists"),
            (["film", "--out", try link(clips[1], "m4v", hard: true)] + film, clips[1], "a video the library scanned"),
            (["film", "--picks", picks, "--out", try link(picks, "mp4")] + film, picks, "the picks file"),
            (["film", videos.path, "--ref", photo, "--out", try link(photo, "mp4")] + film, photo, "a reference photo"),
            (["show", "2024-05-01", "--sheet", photo, "-y"], photo, "a reference photo the library lists"),
            (["show", "2024-05-01", "--sheet", try link(sqlite, "jpg"), "-y"], sqlite, "one of the library's own files"),
            (["calendar", "--sheet", try link(clips[0], "jpg"), "-y"], clips[0], "a video the library scanned"),
            (["calendar", "--sheet", try link(clips[0], "png", hard: true), "-y"], clips[0], "a video the library scanned"),
            (["faces", photo, "--sheet", photo, "-y"], photo, "the photo the sheet is drawn from"),
            (["faces", fixture("yunet/biden.png"), "--match", "--sheet", try link(photo, "jpg"), "-y"], photo, "a reference photo"),
        ]
        for (args, target, what) in cases {
            // The WAL is there only while a run has the store open: the store itself must stay whole.
            let kept = fm.fileExists(atPath: target) ? target : sqlite
            let before = try Data(contentsOf: URL(fileURLWithPath: kept))
            let run = try glimt(args)
            XCTAssertEqual(run.status, 1, "\(args): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(args): \(run.err)")
            XCTAssertTrue(
                run.err.contains(": is \(what) (\(target)), which this run reads; choose another \(args[0] == "film" ? "--out" : "--sheet")"),
                "\(args): \(run.err)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: kept)), before, "\(args): \(kept) is untouched")
        }
        // A faces sheet is an output like any other: an existing file is replaced only with -y.
        let sheet = library.appendingPathComponent("faces.jpg").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: sheet))
        let refused = try glimt("faces", photo, "--sheet", sheet)
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("\(sheet): already exists; add -y (--overwrite) to replace it"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sheet)), Data("mine".utf8))
    }

    /// An output that is a symbolic link is written through (the link stays a link), and hidden
    /// temporary files that a killed run left beside the film are removed; a live run's stay.
    func testSymlinkedOutputsAreWrittenThroughAndStaleTemporariesRemoved() throws {
        let folder = library.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let videos = library.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: videos.appendingPathComponent("a.mp4").path)
        let link = folder.appendingPathComponent("film.mp4"), target = folder.appendingPathComponent("real.mp4")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.mp4")

        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let stale = folder.appendingPathComponent(".real.mp4.\(dead.processIdentifier).partial")
        let live = folder.appendingPathComponent(".real.mp4.\(getpid()).partial")
        for f in [stale, live] { try Data("half a film".utf8).write(to: f) }

        for overwrite in [false, true] {
            let run = try glimt(
                ["film", videos.path, "--no-refs", "--out", link.path, "--size", "180x320", "--mute", "-q"] + (overwrite ? ["-y"] : []))
            XCTAssertEqual(run.status, 0, run.err)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real.mp4", "the link is still a link")
            XCTAssertGreaterThan(try Data(contentsOf: target).count, 1000, "the film is in the link's target")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "a dead run's temporary file is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "a live run's temporary file stays")
    }

    /// A full disk under stdout is a one-line error and exit 1, never a trap.
    func testAFullDiskUnderStandardOutputIsAnError() throws {
        let full = Process()
        full.executableURL = CLITestCase.binary
        full.arguments = ["analyze", fixture("analysis/two_people.mp4"), "--no-refs", "--json", "-q"]
        full.environment = ["XDG_DATA_HOME": library.path]
        full.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        full.standardError = err
        try full.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        full.waitUntilExit()
        XCTAssertEqual(full.terminationReason, .exit, "no crash")
        XCTAssertEqual(full.terminationStatus, 1)
        XCTAssertEqual(text, "glimt-pure analyze: cannot write the output (No space left on device)\n")
    }

    /// Music under a film of saved picks: heard at its level where no one speaks, and at least
    /// 6 dB lower where the second's own sound has speech (heard by the film itself).
    func testMusicIsLoweredWhereASecondHasSpeech() throws {
        let silent = fixture("moment/two_shots.mp4"), speech = fixture("moment/speech.mp4")  // speech at 0-1.2 s
        let crop: [String: Any] = ["x": 0, "y": 0, "width": 100, "height": 178]
        let picks = [(silent, 0.0), (speech, 0.0), (silent, 1.5), (silent, 0.5)].enumerated().map { i, pick -> [String: Any] in
            [
                "day": "2024-05-0\(i + 1)", "video": pick.0, "start": pick.1, "length": 1, "crop": crop, "score": 0.5, "zoom": 1,
                "parts": ["aesthetics": 0.5, "face": 0.5, "sharpness": 0.5], "dateSource": "creation_time", "candidates": 1,
            ]
        }
        let file = library.appendingPathComponent("picks.json")
        try JSONSerialization.data(withJSONObject: ["picks": picks]).write(to: file)
        let music = try SoundFixtures.tone(in: library, hertz: 5_000, seconds: 10)
        let out = library.appendingPathComponent("film.mp4").path
        let film = try glimt("film", "--picks", file.path, "--music", music, "--out", out, "--size", "90x160", "--fps", "25")
        XCTAssertEqual(film.status, 0, film.err)
        let left = try SoundFixtures.left(of: out, seconds: 4)
        let underSilence = SoundFixtures.band(left, hertz: 5_000, from: 2.5, to: 3.4)
        let underSpeech = SoundFixtures.band(left, hertz: 5_000, from: 1.1, to: 1.9)
        XCTAssertEqual(underSilence, -20, accuracy: 1.5, "the default level where no one speaks")
        XCTAssertLessThanOrEqual(underSpeech, underSilence - 6, "lowered under speech")
        // Without the second's own sound there is no speech to make room for.
        let mute = try glimt("film", "--picks", file.path, "--music", music, "--mute", "--out", out, "-y", "--size", "90x160", "--fps", "25")
        XCTAssertEqual(mute.status, 0, mute.err)
        let only = try SoundFixtures.left(of: out, seconds: 4)
        XCTAssertEqual(SoundFixtures.band(only, hertz: 5_000, from: 1.1, to: 1.9), underSilence, accuracy: 1, "music alone, not lowered")
    }

    /// analyze --json, edit a pick, render it with --picks: the re-render without re-analysis.
    func testAnalyzeThenRenderEditedPicks() throws {
        let clip = fixture("analysis/two_people.mp4")
        let analysis = try glimt("analyze", clip, "--no-refs", "--json", "--timezone", "UTC")
        XCTAssertEqual(analysis.status, 0, analysis.err)
        var json = try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as! [String: Any]
        var picks = json["picks"] as! [[String: Any]]
        XCTAssertEqual(picks.count, 1)
        picks[0]["start"] = 2.5
        json["picks"] = picks
        let edited = library.appendingPathComponent("picks.json")
        try JSONSerialization.data(withJSONObject: json).write(to: edited)
        let out = library.appendingPathComponent("edited.mp4").path
        let film = try glimt("film", "--picks", edited.path, "--out", out, "--size", "180x320", "--mute")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.contains("at 2.50 s"), film.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        // An existing film is replaced only when asked (-y), as ffmpeg does.
        let again = try glimt("film", "--picks", edited.path, "--out", out, "--size", "180x320", "--mute")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.contains("already exists; add -y (--overwrite) to replace it"), again.err)
        XCTAssertEqual(try glimt("film", "--picks", edited.path, "--out", out, "--size", "180x320", "--mute", "-y").status, 0)
        let bad = try glimt("film", "--picks", fixture("sface/golden.json"), "--out", library.appendingPathComponent("bad.mp4").path)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("not an 'analyze --json' result"), bad.err)
    }

    /// `--preset` reaches x264 (its settings, which it writes into the film, say so) and the film
    /// plays; a name x264 does not have is a usage error before anything is rendered.
    func testThePresetIsX264sAndABadOneIsRefused() throws {
        let pick: [String: Any] = [
            "day": "2024-05-01", "video": fixture("analysis/two_people.mp4"), "start": 0.0, "length": 1.0, "score": 1,
            "parts": ["aesthetics": 1, "sharpness": 1, "face": 1], "crop": ["x": 100, "y": 0, "width": 144, "height": 256], "zoom": 1,
            "dateSource": "file name", "candidates": 1,
        ]
        let picks = library.appendingPathComponent("picks.json")
        try JSONSerialization.data(withJSONObject: ["picks": [pick]]).write(to: picks)
        // x264's own record of its settings: subme (sub-pixel motion search) is 0 only in ultrafast.
        for (preset, subme) in [("ultrafast", "subme=0 "), ("medium", "subme=7 ")] {
            let out = library.appendingPathComponent("\(preset).mp4").path
            let run = try glimt("film", "--picks", picks.path, "--out", out, "--size", "180x320", "--mute", "--preset", preset)
            XCTAssertEqual(run.status, 0, run.err)
            XCTAssertEqual(try VideoReader(path: out).frames(from: 0, to: 10, depth: .eightBit).collect().count, 30, preset)
            let settings = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
            XCTAssertTrue(settings.contains(subme), "--preset \(preset): x264 ran with another preset")
        }
        let out = library.appendingPathComponent("bad.mp4").path
        let bad = try glimt("film", "--picks", picks.path, "--out", out, "--preset", "fastest")
        XCTAssertEqual(bad.status, 64, bad.err)
        XCTAssertEqual(bad.err.split(separator: "\n").count, 1, bad.err)
        XCTAssertTrue(bad.err.contains("--preset must be ultrafast or superfast"), bad.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// A render killed midway leaves no file under the output name, whether the process gets to
    /// clean up (SIGTERM) or not (SIGKILL).
    func testKillingARenderMidwayLeavesNoFilm() throws {
        let clip = fixture("analysis/crowd_a_6to7.mp4")
        let box: [String: Any] = ["x": 0, "y": 0, "width": 150, "height": 270]
        let parts: [String: Any] = ["aesthetics": 1, "sharpness": 1, "face": 1]
        let picks: [[String: Any]] = (1...9).map { d in
            [
                "day": "2024-05-0\(d)", "video": clip, "start": 0.0, "length": 8.0, "score": 1, "parts": parts, "crop": box, "zoom": 1,
                "dateSource": "file name", "candidates": 1,
            ]
        }
        let file = library.appendingPathComponent("long.json")
        try JSONSerialization.data(withJSONObject: ["picks": picks]).write(to: file)
        for signal in [SIGTERM, SIGKILL] {
            let folder = library.appendingPathComponent("out-\(signal)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let out = folder.appendingPathComponent("film.mp4")
            let p = try start(["film", "--picks", file.path, "--out", out.path, "--seconds", "8", "--quality", "16"])
            // Wait until the render has begun writing its temporary file.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty, p.isRunning {
                usleep(20_000)
            }
            XCTAssertTrue(p.isRunning, "the render should still be going")
            usleep(300_000)
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no film under the output name after signal \(signal)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if signal == SIGTERM { XCTAssertEqual(left, [], "SIGTERM also removes the temporary file") }
            XCTAssertTrue(left.allSatisfy { $0.hasPrefix(".") }, "only a hidden temporary name may remain: \(left)")
        }
    }
}
