import Foundation
import GlimtCore

/// How long reading one file may take. A file that makes the demuxer or decoder spin (a
/// damaged index walked byte by byte, a stream that never ends) or reads that stall is stopped
/// with a one-line error, and the run goes on with the next file. The bound is generous: it is
/// there for files that would never finish, not for slow machines.
public struct TimeBound: Sendable, Equatable {
    /// `DispatchTime` uptime, in nanoseconds, past which reading stops.
    public let deadline: UInt64
    public let seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
        deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 1e9)) * 1e9)
    }

    public var expired: Bool { deadline != .max && DispatchTime.now().uptimeNanoseconds > deadline }

    /// No bound at all.
    public static let unbounded = TimeBound(deadline: .max, seconds: .infinity)

    private init(deadline: UInt64, seconds: Double) {
        self.deadline = deadline
        self.seconds = seconds
    }

    /// Opening a file and reading its headers: no real file needs more.
    public static let forOpening = 30.0

    /// How long a video of some length may take.
    public struct Allowance: Sendable, Equatable {
        public var base: Double
        public var perVideoSecond: Double

        public init(base: Double, perVideoSecond: Double) {
            self.base = base
            self.perVideoSecond = perVideoSecond
        }

        /// 4K HEVC analyses at 10-20x real time on two cores and 8K at about real time, so
        /// two minutes plus three times the length stops nothing that would finish.
        public static let standard = Allowance(base: 120, perVideoSecond: 3)

        public func bound(forVideoSeconds duration: Double) -> TimeBound {
            TimeBound(seconds: base + perVideoSecond * (duration.isFinite ? max(0, duration) : 0))
        }
    }

    func exceeded(path: String) -> TimeBoundExceeded {
        TimeBoundExceeded(error: GlimtError(String(format: "stopped after %.0f s, its time bound (a damaged or hostile file?)", seconds), path: path))
    }
}

/// Reading went past its `TimeBound`: not damage to read around, the end of this file.
public struct TimeBoundExceeded: Error, Sendable {
    public let error: GlimtError
}
