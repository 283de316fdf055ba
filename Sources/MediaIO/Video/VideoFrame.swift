import Imaging

/// A small upright picture taken from a video for looking at (faces, sharpness).
public struct SampledFrame: Sendable, Equatable {
    /// Seconds from the video's start, from the frame's own presentation timestamp.
    public let time: Double
    public let image: RGBImage
}

/// A full-resolution upright frame for the film renderer.
public struct VideoFrame: Sendable, Equatable {
    /// Seconds from the video's start, from the frame's own presentation timestamp.
    public let time: Double
    public let picture: VideoPicture
}

/// A frame's pixels: 8-bit for 8-bit video, 16-bit planes for deeper video (10-bit HDR from
/// phones) so that tone mapping can happen later without banding. Either way full-range RGB,
/// still in the video's own transfer curve and primaries (see `VideoInfo.colour`).
public enum VideoPicture: Sendable, Equatable {
    case rgb8(RGBImage)
    case rgb16(RGB16Image)

    public var width: Int {
        switch self {
        case .rgb8(let image): return image.width
        case .rgb16(let image): return image.width
        }
    }

    public var height: Int {
        switch self {
        case .rgb8(let image): return image.height
        case .rgb16(let image): return image.height
        }
    }

    /// The picture at 8 bits, rounding 16-bit planes.
    public var rgb8: RGBImage {
        switch self {
        case .rgb8(let image): return image
        case .rgb16(let image): return image.to8Bit()
        }
    }
}

/// Part of the upright picture, scaled to a size: the frames a film clip needs. Converting only
/// that part (not the whole 8K frame, then a crop of it) saves most of the conversion's time and
/// memory (an 8K frame is 100 MB as RGB).
public struct FrameRegion: Sendable, Equatable {
    /// In upright display pixels, rounded to whole pixels and kept inside the picture.
    public var crop: Box
    public var width: Int
    public var height: Int

    public init(crop: Box, width: Int, height: Int) {
        self.crop = crop
        self.width = width
        self.height = height
    }
}

/// How deep full-resolution frames come.
public enum FrameDepth: Sendable {
    /// 16-bit planes when the video has more than 8 bits per sample, else 8-bit.
    case source
    /// Always 8-bit.
    case eightBit
}
