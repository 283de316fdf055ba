import Foundation
import GlimtCore
import Library

/// `glimt-pure pick --apply glimt-choices.json`: the choices a person made on the review page,
/// applied to the library. The file comes from a browser download a person may have edited, so
/// every entry is checked like every user file: a day without video, a video not of that day, a
/// time past its end, an unknown action or a second choice for one day is one line naming the
/// entry, left out; the others are applied.
public enum ChoicesFile {
    struct Choice: Decodable {
        let day: String
        let action: String
        let video: String?
        let at: Double?
        /// A pick of a second that does not show the person, taken anyway (as `pick --force`).
        let force: Bool?
    }

    struct File: Decodable {
        let glimt: String
        let version: Int
        let person: String?
        let choices: [JSONFile.Entry<Choice>]
    }

    public struct Outcome: Sendable {
        /// Whose choices they were.
        public var person: String?
        public var pinned = 0, excluded = 0, included = 0, automatic = 0
        /// Of `pinned`, the pins on days that were excluded, which they brought back.
        public var pinnedOnExcludedDays = 0
        /// Of `pinned`, the seconds taken anyway that do not show the person: one line each.
        public var forced: [GlimtError] = []
        /// One line each for the entries left out.
        public var problems: [GlimtError] = []
        public var applied: Int { pinned + excluded + included + automatic }
    }

    /// Applies the file's choices for its person (`person`, when given, must be the same). A pick
    /// of a second that does not show the person is left out like any entry that cannot be
    /// applied, unless it says `"force": true` or `force` takes every such pick.
    public static func apply(_ path: String, library: URL, person: String?, force: Bool = false) throws -> Outcome {
        let file = try JSONFile.read(File.self, from: path, what: "a choices file saved by 'glimt-pure review'")
        guard file.glimt == "choices" else {
            throw GlimtError("not a choices file saved by 'glimt-pure review' (its \"glimt\" is '\(file.glimt)')", path: path)
        }
        guard file.version == 1 else { throw GlimtError("version \(file.version) is not one this glimt reads (1)", path: path) }
        if let person, let theirs = file.person, person.lowercased() != theirs.lowercased() {
            throw GlimtError("these are \(theirs)'s choices, and --person says \(person)", path: path)
        }
        let name = person ?? file.person
        let choices = try LibraryChoices(library: library, person: try People.choicesOwner(name, library: library))
        let withVideo = Set(try choices.store.days())
        var outcome = Outcome(person: name)
        var seen: [String: Set<String>] = [:]
        // The whole file or nothing of it: a run killed half-way leaves the library as it was.
        try choices.store.inOneTransaction {
            for (i, entry) in file.choices.enumerated() {
                func leftOut(_ why: String, day: String? = nil) {
                    outcome.problems.append(GlimtError("choices[\(i)]\(day.map { " (\($0))" } ?? ""): \(why); left out", path: path))
                }
                let c: Choice
                switch entry.value {
                case .success(let choice): c = choice
                case .failure(let e):
                    // The decoder's reason already names the place ("choices[3].day is missing").
                    outcome.problems.append(GlimtError("\(e.reason); left out", path: path))
                    continue
                }
                if let problem = CalendarDay.problem(c.day) { leftOut(problem); continue }
                guard withVideo.contains(c.day) else { leftOut("the library has no video of that day", day: c.day); continue }
                // The first choice of a day that can be applied is the day's; a later one is a mistake,
                // but for a pin and an inclusion of one day, which say the same.
                if let before = seen[c.day], before.contains(c.action) || !before.union([c.action]).isSubset(of: ["pick", "include"]) {
                    leftOut("a second choice for the day; a day gets one", day: c.day)
                    continue
                }
                do {
                    switch c.action {
                    case "pick":
                        guard let video = c.video, let at = c.at else { leftOut("a pick needs a \"video\" and an \"at\"", day: c.day); continue }
                        let pinned = try choices.pin(day: c.day, file: video, start: at, force: force || c.force == true)
                        if pinned.includedAgain { outcome.pinnedOnExcludedDays += 1 }
                        if let why = pinned.notShown {
                            outcome.forced.append(GlimtError("choices[\(i)] (\(c.day)): \(video): \(why); pinned anyway (forced)", path: path))
                        }
                        outcome.pinned += 1
                    case "exclude":
                        try choices.set(c.day, excluded: true)
                        outcome.excluded += 1
                    case "include":
                        try choices.set(c.day, excluded: false)
                        outcome.included += 1
                    case "auto":
                        try choices.automatic(day: c.day)
                        outcome.automatic += 1
                    default:
                        leftOut("'\(c.action)' is not pick, exclude, include or auto", day: c.day)
                        continue
                    }
                    seen[c.day, default: []].insert(c.action)
                } catch let e as GlimtError {
                    leftOut((e.path.map { "\($0): " } ?? "") + e.reason, day: c.day)
                }
            }
        }
        return outcome
    }
}
