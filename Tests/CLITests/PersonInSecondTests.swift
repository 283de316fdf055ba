import Foundation
import GlimtPure
import TestSupport
import XCTest

/// The person there for the second: a pin, the review page's choices, `days` and the film's
/// captions judge the chosen second by its own samples, not by who is somewhere in the video.
final class PersonInSecondTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }
    private var clip = ""

    private func run(_ args: String...) throws -> Run { try glimt(args + ["--library", store.path]) }

    /// Barack (Obama) and Joe (Biden), and one clip of 2024-05-01 in scenes of 1.5 s: Obama
    /// [0, 1.5), Biden [1.5, 3), no one [3, 4.5), Eileen Collins, whom the library does not know,
    /// [4.5, 6). Both people are in the video; each second shows whom its scene shows.
    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        clip = try GeneratedClips.write(
            scenes: ["yunet/obama.png", "yunet/biden.png", nil, "yunet/collins_nasa.png"], day: "20240501",
            to: library.appendingPathComponent("videos").path)
        let scan = try run("scan", library.appendingPathComponent("videos").path, "--timezone", "UTC", "-q")
        XCTAssertEqual(scan.status, 0, scan.err)
    }

    private func day(_ who: [String]) throws -> DayReport {
        let days = try glimt(["days", "--json", "--library", store.path] + who)
        XCTAssertEqual(days.status, 0, days.err)
        return try XCTUnwrap(try JSONDecoder().decode([DayReport].self, from: Data(days.out.utf8)).first { $0.day == "2024-05-01" })
    }

    private func pins(_ person: Int) throws -> [String: (contentKey: String, start: Double)] {
        try LibraryStore(library: store).choices(person: person).pins
    }

    /// Where the review page's choices are saved, as `pick --apply` reads them.
    private var file: URL { library.appendingPathComponent("glimt-choices.json") }

    private func writeChoices(_ choices: [[String: Any]], person: String) throws {
        let json: [String: Any] = ["glimt": "choices", "version": 1, "person": person, "choices": choices]
        try JSONSerialization.data(withJSONObject: json).write(to: file)
    }

    private var barack: Int { get throws { try XCTUnwrap(ReferenceStore(library: store).person(named: "Barack")).id } }

    /// Every video holds both people, so the video's verdict cannot tell a pin of Joe's second
    /// for Barack: refused, in one line saying who is there, and pinned with --force.
    func testAPinOnASecondWithoutThePersonIsRefusedUnlessForced() throws {
        for (at, shows) in [("2.0", "Joe"), ("3.5", "no face"), ("5.0", "no one the library knows")] {
            let refused = try run("pick", "2024-05-01", "--person", "Barack", "--video", clip, "--at", at)
            XCTAssertEqual(refused.status, 1, refused.err)
            XCTAssertEqual(
                refused.err,
                "glimt-pure pick: \(clip): Barack is not in the second from \(at)0 s (it shows \(shows)); --force pins it anyway\n")
            XCTAssertEqual(refused.out, "")
        }
        XCTAssertNil(try pins(barack)["2024-05-01"], "nothing pinned")

        let own = try run("pick", "2024-05-01", "--person", "Barack", "--video", clip, "--at", "0.2")
        XCTAssertEqual(own.status, 0, own.err)
        XCTAssertEqual(own.out, "2024-05-01: pinned \(clip) at 0.20 s\n", "a second that shows him is pinned as before")

        let forced = try run("pick", "2024-05-01", "--person", "Barack", "--video", clip, "--at", "2.0", "--force")
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertEqual(forced.out, "2024-05-01: pinned \(clip) at 2.00 s; forced: Barack is not in the second from 2.00 s (it shows Joe)\n")
        XCTAssertEqual(try pins(barack)["2024-05-01"]?.start, 2.0)
        let report = try day(["--person", "Barack"])
        XCTAssertEqual(report.status, .pinned)
        XCTAssertEqual(report.pick?.people, [], "the film's caption leaves his name out")
    }

    /// `days` says a pin with the evidence of its own second's samples: a second of Joe's,
    /// pinned for Barack, is not Barack's, whatever the rest of the video holds.
    func testDaysShowsAPinsOwnEvidence() throws {
        let store = try LibraryStore(library: self.store)
        let video = try XCTUnwrap(store.videos(onDay: "2024-05-01").first)
        try store.pin(day: "2024-05-01", contentKey: video.contentKey, start: 2.0, person: try barack)
        let pinned = try day(["--person", "Barack"])
        XCTAssertEqual(pinned.status, .pinned)
        let evidence = try XCTUnwrap(pinned.pick?.identity)
        XCTAssertFalse(evidence.containsPerson, "Joe's second does not show Barack")
        XCTAssertEqual(evidence.framesAtMatch, 0)
        XCTAssertLessThan(evidence.bestCosine, 0.45, "the second's best cosine, not the video's")
        let automatic = try XCTUnwrap(pinned.candidates.first)
        XCTAssertEqual(automatic.containsPerson, true, "the video holds him (its other seconds)")
        let text = try run("days", "--person", "Barack")
        XCTAssertTrue(text.out.contains("2024-05-01  pinned: \(clip) at 2.00 s, score "), text.out)
        XCTAssertTrue(text.out.contains(", Barack not in the pinned second (best cosine "), text.out)
        XCTAssertFalse(text.out.contains("Barack found"), text.out)

        try store.pin(day: "2024-05-01", contentKey: video.contentKey, start: 0.2, person: try barack)
        let own = try XCTUnwrap(try day(["--person", "Barack"]).pick?.identity)
        XCTAssertTrue(own.containsPerson)
        XCTAssertGreaterThanOrEqual(own.framesAtMatch, 6, "the samples of [0.2, 1.2) that show him")
        XCTAssertLessThanOrEqual(own.framesAtMatch, 8)
    }

    /// The family film names, each day, the people its second shows: Joe's second is Joe's, and
    /// the automatic second is captioned with whom its samples show, whoever else the video holds.
    func testEveryonesCaptionsNameOnlyThePeopleVisible() throws {
        let automatic = try XCTUnwrap(try day(["--everyone"]).pick)
        let scenes: [(range: Range<Double>, who: String?)] = [(0..<1.5, "Barack"), (1.5..<3, "Joe"), (3..<6, nil)]
        let shown = scenes.filter { $0.range.overlaps(automatic.start..<(automatic.start + 1)) }
        XCTAssertEqual(shown.count, 1, "the family's second at \(automatic.start) s is one shot, not a glimpse of the next")
        let seen = Set(shown.compactMap(\.who))
        XCTAssertEqual(Set(automatic.people ?? []), seen, "at \(automatic.start) s")

        for (at, who) in [(2.0, ["Joe"]), (0.2, ["Barack"])] {
            try writeChoices([["day": "2024-05-01", "action": "pick", "video": clip, "at": at]], person: "everyone")
            let apply = try run("pick", "--apply", file.path)
            XCTAssertEqual(apply.status, 0, apply.err)
            let pinned = try day(["--everyone"])
            XCTAssertEqual(pinned.status, .pinned)
            XCTAssertEqual(pinned.pick?.people, who, "the second at \(at) s")
            XCTAssertEqual(pinned.peopleFound, ["Barack", "Joe"], "the day holds both")
        }
        // The family's choice of a second that shows none of them is refused as a person's is.
        try writeChoices([["day": "2024-05-01", "action": "pick", "video": clip, "at": 5.0]], person: "everyone")
        let refused = try run("pick", "--apply", file.path)
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(
            refused.err.contains("\(clip): none of Barack, Joe is in the second from 5.00 s (it shows no one the library knows); "), refused.err)
        XCTAssertEqual(try pins(LibraryStore.everyone)["2024-05-01"]?.start, 0.2, "the pin before stays")
    }

    /// A choice made on the review page goes through the same check: refused in one line naming
    /// who is there, the other choices applied; `"force": true` (or `--apply --force`) takes it.
    func testTheReviewPagesChoiceWithoutThePersonIsRefused() throws {
        func write(_ choices: [[String: Any]]) throws { try writeChoices(choices, person: "Barack") }
        let other = try GeneratedClips.write(
            [GeneratedClips.Clip(day: "20240502", face: "yunet/obama2.png")], to: library.appendingPathComponent("more").path)
        XCTAssertEqual(try run("scan", other[0], "--timezone", "UTC", "-q").status, 0)
        try write([
            ["day": "2024-05-01", "action": "pick", "video": clip, "at": 2.0], ["day": "2024-05-02", "action": "pick", "video": other[0], "at": 0.2],
        ])
        let apply = try run("pick", "--apply", file.path)
        XCTAssertEqual(apply.status, 1, apply.err)
        XCTAssertEqual(
            apply.err,
            "glimt-pure pick: \(file.path): choices[0] (2024-05-01): \(clip): Barack is not in the second from 2.00 s (it shows Joe); "
                + "--force pins it anyway; left out\n")
        XCTAssertTrue(apply.out.hasPrefix("applied 1 choice of Barack: 1 pinned,"), "the others are applied: \(apply.out)")
        XCTAssertNil(try pins(barack)["2024-05-01"])
        XCTAssertEqual(try pins(barack)["2024-05-02"]?.start, 0.2)

        try write([["day": "2024-05-01", "action": "pick", "video": clip, "at": 2.0, "force": true]])
        let forced = try run("pick", "--apply", file.path)
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertEqual(
            forced.err,
            "glimt-pure pick: \(file.path): choices[0] (2024-05-01): \(clip): Barack is not in the second from 2.00 s (it shows Joe); "
                + "pinned anyway (forced)\n")
        XCTAssertEqual(try pins(barack)["2024-05-01"]?.start, 2.0)

        try write([["day": "2024-05-01", "action": "pick", "video": clip, "at": 3.5]])
        XCTAssertEqual(try run("pick", "--apply", file.path).status, 1, "no face: refused")
        let all = try run("pick", "--apply", file.path, "--force")
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertTrue(all.err.contains("(it shows no face); pinned anyway (forced)"), all.err)
        XCTAssertEqual(try pins(barack)["2024-05-01"]?.start, 3.5)
    }
}
