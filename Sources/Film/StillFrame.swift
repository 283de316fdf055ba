import GlimtCore
import Imaging
import MediaIO

/// One picture of a video as the film shows it: the first frame from a time on, full size,
/// upright, HDR tone-mapped to SDR. Sheets, thumbnails and reference suggestions read their
/// pictures here, so what they show is what the film cuts.
public enum StillFrame {
    /// The frame at `time`, or in the middle of the video when `time` is nil: the film's own
    /// reading (see `VideoFrames`), so inside a variable-rate video's gap or in the last frame's
    /// time it is the frame on screen there.
    public static func at(_ time: Double?, in path: String) throws -> RGBImage {
        // A photo is its one picture at every time (see `PhotoFile`).
        if PhotoFile.isPhoto(path) { return try ImageDecoder.decode(path: path) }
        let reader = try VideoReader(path: path)
        let info = reader.info
        let screen = ScreenPicture(info)
        let t = min(max(0, time ?? info.duration / 2), info.duration)
        let frames = try reader.frames(from: t, to: t + 1, depth: screen.depth)
        guard let frame = try frames.next() else { throw GlimtError(String(format: "no picture could be decoded at %.2f s", t), path: path) }
        return screen.image(frame.picture)
    }

    /// The picture's size as the film shows it (upright), read without decoding.
    public static func size(of path: String) throws -> (width: Int, height: Int) {
        if PhotoFile.isPhoto(path) {
            let picture = try ImageDecoder.decode(path: path)
            return (picture.width, picture.height)
        }
        let info = try VideoReader(path: path).info
        return (info.displayWidth, info.displayHeight)
    }
}
