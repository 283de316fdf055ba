import Foundation
import GlimtPure
import TestSupport
import XCTest

/// Each default is the options type's own: what help prints is read from there (HouseTests
/// checks that the CLI writes none of its own), and a mode that would ignore an option refuses it.
final class DefaultsTests: CLITestCase {
    /// `--name ... (default X)` for every option of a command's help, joined across wrapped lines.
    private func defaults(_ command: String) throws -> [String: String] {
        let help = try glimt("help", command).out.replacingOccurrences(of: "\n                         ", with: " ")
        let re = try NSRegularExpression(pattern: #"^  (?:-\w, )?(--[\w-]+).*\(default ([^)]*)\)"#, options: .anchorsMatchLines)
        var out: [String: String] = [:]
        for m in re.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
            out[String(help[Range(m.range(at: 1), in: help)!])] = String(help[Range(m.range(at: 2), in: help)!])
        }
        return out
    }

    private func text(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    func testHelpShowsTheOptionsTypesDefaults() throws {
        let analysis = AnalysisOptions(), rules = Judgement.Rules(), film = FilmOptions(), thresholds = Identity.Thresholds.standard
        let expected: [String: String] = [
            "--sample-rate": text(analysis.sampleRate), "--side": String(analysis.analysisSide),
            "--match-threshold": "\(thresholds.match)", "--strong-threshold": "\(thresholds.strong)",
            "--frames-needed": String(thresholds.framesNeeded),
            "--aspect": Aspect.standard.rawValue, "--without-person": rules.withoutPerson.rawValue, "--seconds": text(rules.windowLength),
            "--fps": String(film.fps), "--quality": String(film.quality), "--preset": film.preset, "--caption": film.caption.rawValue,
        ]
        let filmHelp = try defaults("film")
        for (option, value) in expected { XCTAssertEqual(filmHelp[option], value, "film \(option)") }
        XCTAssertEqual(try defaults("scan")["--jobs"], String(LibraryScan.standardWorkers))
        XCTAssertEqual(try defaults("faces")["--detect-size"], String(FaceModels.standardDetectionSize))
        XCTAssertEqual(try defaults("reference")["--detect-size"], String(FaceModels.standardDetectionSize))
        for command in ["days", "show", "calendar"] {
            let help = try defaults(command)
            XCTAssertEqual(help["--seconds"], text(rules.windowLength), command)
            XCTAssertEqual(help["--match-threshold"], "\(thresholds.match)", command)
        }
        XCTAssertEqual(rules.windowLength, film.seconds, "the film's clip and the chosen window are one length")
        XCTAssertTrue(try glimt("help", "reference").out.contains("(up to \(ReferenceStore.maxReferences) each)"))
    }

    /// Options a mode would ignore are refused, with where they do apply.
    func testTheLibrarysFilmRefusesWhatOnlyAnAnalysisTakes() throws {
        let out = library.appendingPathComponent("film.mp4").path
        for option in [["--sample-rate", "4"], ["--side", "320"], ["--timezone", "UTC"], ["--full-pass"], ["--every-face"]] {
            let run = try glimt(["film", "--out", out] + option)
            XCTAssertEqual(run.status, 64, "\(option): \(run.err)")
            XCTAssertEqual(
                run.err,
                "glimt-pure film: \(option[0]) applies when videos are analysed ('film VIDEO|FOLDER...', 'analyze', 'scan'); the library's videos were analysed when they were scanned\n"
            )
        }
        let picks = try glimt("film", "--picks", out, "--out", out, "--ref", fixture("photos/obama2.jpg"))
        XCTAssertEqual(picks.status, 64)
        XCTAssertTrue(picks.err.hasPrefix("glimt-pure film: --ref has no effect with --picks"), picks.err)
        let days = try glimt("days", "--sample-rate", "4")
        XCTAssertEqual(days.status, 64)
        XCTAssertEqual(
            days.err, "glimt-pure days: unknown option --sample-rate for 'days'; it is an option of film, scan, analyze (see: glimt-pure help days)\n"
        )
    }

    func testMisspeltCommandsAndOptionsGetASuggestion() throws {
        XCTAssertEqual(try glimt("scna").err, "glimt-pure: unknown command 'scna' (did you mean 'scan'?) (see: glimt-pure --help)\n")
        XCTAssertEqual(try glimt("calender").err, "glimt-pure: unknown command 'calender' (did you mean 'calendar'?) (see: glimt-pure --help)\n")
        let option = try glimt("days", "--form", "2024-01-01")
        XCTAssertEqual(option.status, 64)
        XCTAssertEqual(option.err, "glimt-pure days: unknown option --form for 'days' (did you mean --from?)\n")
        XCTAssertEqual(
            try glimt("scan", "--sampel-rate", "4", "x").err,
            "glimt-pure scan: unknown option --sampel-rate for 'scan' (did you mean --sample-rate?)\n")
        XCTAssertFalse(try glimt("days", "--wombat").err.contains("did you mean"), "nothing close: no guess")
    }
}
