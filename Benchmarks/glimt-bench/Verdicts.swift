import Analysis
import Faces
import Foundation
import MediaIO

/// The same videos judged from two stores (one observed with a shortcut, one without), for each
/// reference photo (each one person) and for no one: how many judgements are the same (found or
/// not, the same second), and for the others how far the shortcut's second scores below the
/// best in the second store: the measured bound of a shortcut (`follow`, `look`).
enum Verdicts {
    struct Tally {
        var same = 0
        var compared = 0
        /// Largest score the second store gives its own best second above the shortcut's.
        var worstLoss: Float = 0
        var foundDiffers = 0
    }

    /// `borrowed`: embeddings a face used beside its own, to count verdicts that crossed a line.
    static func compare(
        _ videos: [(ObservedVideo, ObservedVideo)], references: [String], includeNoOne: Bool = false,
        borrowed: [(used: Embedding, own: Embedding)] = [], otherStore: String
    ) throws -> Tally {
        let pipeline = try FacePipeline.shared()
        let rules = Judgement.Rules(), thresholds = rules.thresholds
        var tally = Tally()
        var judges: [(String, [Embedding])] = includeNoOne ? [("no one", [])] : []
        for photo in references {
            guard let face = pipeline.faces(in: try ImageDecoder.decode(path: photo), embed: false).first else {
                print("\(photo): no face, left out")
                continue
            }
            judges.append((URL(fileURLWithPath: photo).lastPathComponent, [pipeline.referenceEmbedding(face.crop)]))
        }
        for (name, references) in judges {
            var crossings = ""
            if let r = references.first, !borrowed.isEmpty {
                var worst: Float = 0, flips = (match: 0, strong: 0)
                for p in borrowed {
                    let (own, used) = (p.own.cosine(r), p.used.cosine(r))
                    worst = max(worst, abs(own - used))
                    if (own >= thresholds.match) != (used >= thresholds.match) { flips.match += 1 }
                    if (own >= thresholds.strong) != (used >= thresholds.strong) { flips.strong += 1 }
                }
                crossings = String(
                    format: "largest cosine change %.3f; verdicts crossing %.2f: %d, crossing %.2f: %d; ", worst, thresholds.match,
                    flips.match, thresholds.strong, flips.strong)
            }
            let judge = Judgement(references: references, rules: rules)
            var same = 0, differ: [String] = []
            for (f, e) in videos {
                let (x, y) = (judge.analysis(of: f), judge.analysis(of: e))
                let found = (x.identity?.containsPerson ?? false, y.identity?.containsPerson ?? false)
                if found.0 == found.1 && x.window?.start == y.window?.start {
                    same += 1
                    continue
                }
                if found.0 != found.1 { tally.foundDiffers += 1 }
                // How each store scores the second the other chose: how close a call it was.
                let other = y.window.flatMap { w in
                    BestWindow.at(start: w.start, times: x.frames.map(\.time), scores: x.frames.map { $0.score.total })
                }
                let mine = x.window.flatMap { w in BestWindow.at(start: w.start, times: y.frames.map(\.time), scores: y.frames.map { $0.score.total })
                }
                if let best = y.window?.meanScore { tally.worstLoss = max(tally.worstLoss, best - (mine?.meanScore ?? 0)) }
                func n(_ v: Float?, _ digits: Int) -> String { v.map { String(format: "%.\(digits)f", Double($0)) } ?? "-" }
                differ.append(
                    URL(fileURLWithPath: f.path).lastPathComponent
                        + " (found \(found.0)/\(found.1), second \(n(x.window.map { Float($0.start) }, 2))/\(n(y.window.map { Float($0.start) }, 2)),"
                        + " scored \(n(x.window?.meanScore, 3))/\(n(other?.meanScore, 3)) by the first store,"
                        + " \(n(mine?.meanScore, 3))/\(n(y.window?.meanScore, 3)) by \(otherStore))")
            }
            tally.same += same
            tally.compared += videos.count
            print(
                "\(name): \(crossings)videos judged the same \(same) of \(videos.count)"
                    + (differ.isEmpty ? "" : " (differ: " + differ.joined(separator: ", ") + ")"))
        }
        return tally
    }
}
