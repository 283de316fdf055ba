import CFFmpeg
import Imaging

extension ImageOrientation {
    /// Reads a display matrix the way FFmpeg's own autorotation does, so files show as `ffmpeg`
    /// shows them. Angles that are not a multiple of 90° are left alone.
    init(displayMatrix m: UnsafePointer<Int32>) {
        let theta = Self.clockwiseDegrees(displayMatrix: m)
        if abs(theta - 90) < 1 {
            self = m[3] > 0 ? .transposed : .rotated90
        } else if abs(theta - 180) < 1 {
            switch (m[0] < 0, m[4] < 0) {
            case (true, true): self = .rotated180
            case (true, false): self = .mirrored
            case (false, true): self = .flipped
            case (false, false): self = .upright
            }
        } else if abs(theta - 270) < 1 {
            self = m[3] < 0 ? .transversed : .rotated270
        } else if abs(theta) < 1 {
            self = m[4] < 0 ? .flipped : .upright
        } else {
            self = .upright
        }
    }

    /// The clockwise turn a display matrix asks for, in [0, 360); 0 when the matrix is degenerate.
    static func clockwiseDegrees(displayMatrix m: UnsafePointer<Int32>) -> Double {
        let counterClockwise = av_display_rotation_get(m)
        guard counterClockwise.isFinite else { return 0 }
        var theta = -counterClockwise.rounded()
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        return theta
    }
}
