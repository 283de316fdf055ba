import GlimtCore
import Imaging
import MediaIO

/// One picture of a video as the film shows it: the first frame from a time on, full size,
/// upright, HDR tone-mapped to SDR.
enum StillFrame {
    /// The frame at `time`, or in the middle of the video when `time` is nil. Times are kept a
    /// little inside the video, so a second pinned at the very end still finds a frame.
    static func at(_ time: Double?, in path: String) throws -> RGBImage {
        let reader = try VideoReader(path: path)
        let info = reader.info
        let screen = ScreenPicture(info)
        let t = min(max(0, time ?? info.duration / 2), max(0, info.duration - 0.1))
        let frames = try reader.frames(from: t, to: t + 1, depth: screen.depth)
        guard let frame = try frames.next() else { throw GlimtError(String(format: "no picture could be decoded at %.2f s", t), path: path) }
        return screen.image(frame.picture)
    }
}

extension StillFrame {
    /// The picture's size as the film shows it (upright), read without decoding.
    static func size(of path: String) throws -> (width: Int, height: Int) {
        let info = try VideoReader(path: path).info
        return (info.displayWidth, info.displayHeight)
    }
}
