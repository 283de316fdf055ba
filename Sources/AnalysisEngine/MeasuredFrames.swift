import Analysis
import Foundation
import GlimtCore
import MediaIO

/// What the measuring threads of one pass share: the next sample to take (in order, with its
/// number), the frames measured so far (put back in order), the embeddings borrowed between
/// them (when faces are followed), and how the pass ended.
final class MeasuredFrames: @unchecked Sendable {
    let workers: Int
    let borrowing: BorrowedEmbeddings?
    private let lock = NSLock()
    private var taken = 0
    private var done = false
    private var measured: [Int: ObservedFrame] = [:]
    private var latest = 0.0
    private(set) var times = VideoAnalysis.StageTimes()
    /// The damage that ended decoding early (the frames before it stand).
    private(set) var damage: GlimtError?
    /// Any other failure, rethrown by the pass.
    private(set) var failure: Error?

    init(workers: Int, borrowing: BorrowedEmbeddings? = nil) {
        self.workers = workers
        self.borrowing = borrowing
    }

    /// The next sample and its number, or nil when decoding has ended for every thread.
    func take(from ahead: Prefetcher<SampledFrame>) -> (Int, SampledFrame)? {
        lock.lock()
        defer { lock.unlock() }
        guard !done else { return nil }
        if StopRequest.isRequested {
            // Asked to stop (Ctrl-C, SIGTERM): this video is given up, the ones finished stand.
            failure = Stopped()
            done = true
            return nil
        }
        do {
            guard let sample = try ahead.next() else {
                done = true
                return nil
            }
            taken += 1
            return (taken - 1, sample)
        } catch let error as GlimtError {
            damage = error
        } catch {
            failure = error
        }
        done = true
        return nil
    }

    func put(_ frame: ObservedFrame, at n: Int, progress: (Double) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        measured[n] = frame
        // Progress never goes backwards, whichever thread finishes first.
        if frame.time > latest {
            latest = frame.time
            progress(frame.time)
        }
    }

    func add(_ t: VideoAnalysis.StageTimes) {
        lock.lock()
        times.add(t)
        lock.unlock()
    }

    var frames: [ObservedFrame] {
        let ordered = measured.keys.sorted().map { measured[$0]! }
        return borrowing?.fill(ordered) ?? ordered
    }
}
