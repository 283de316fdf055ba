import CFFmpeg
import GlimtCore
import Imaging

/// libswscale behind one small type: scales and converts decoded pictures with accurate rounding
/// and full chroma interpolation, honouring each frame's YUV matrix and range.
final class PixelConverter {
    /// What to assume for a frame that does not say which YUV matrix it uses.
    enum UnlabelledMatrix {
        /// JPEG, WebP and other stills: BT.601.
        case photo
        /// BT.709 from 720p up, BT.601 below, as video players do.
        case video
    }

    private var scaler: OpaquePointer?
    private var output: UnsafeMutablePointer<AVFrame>?
    private var lent: UnsafeMutablePointer<AVFrame>?
    private let unlabelled: UnlabelledMatrix
    private let flags: Int32
    private let averageEveryShrink: Bool

    /// `accurateRounding` is libswscale's exact rounding: it takes C paths instead of SIMD and
    /// costs about 1.5 ms more per 640x360 frame, for values that differ by at most a level or two.
    /// `averageEveryShrink`: any shrink averages areas, not only to half or less. Pictures to be
    /// analysed want it: libswscale's bicubic with full chroma interpolation is its slowest path,
    /// and a 480p or an anamorphic 720p video shrinks by less than half. A film's pictures keep
    /// bicubic there, the sharper for what a person watches.
    init(unlabelled: UnlabelledMatrix, accurateRounding: Bool = true, averageEveryShrink: Bool = false) {
        self.unlabelled = unlabelled
        flags = SWS_BICUBIC | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | (accurateRounding ? SWS_ACCURATE_RND : 0)
        self.averageEveryShrink = averageEveryShrink
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&output)
        av_frame_free(&lent)
    }

    /// `frame` as packed 8-bit RGB at `width` x `height`, converted straight into the image's
    /// own bytes: no picture-sized buffer kept between calls, no copy. SIMD code may write past
    /// the last row's end, so the bytes have slack beyond their count.
    func rgbImage(from frame: UnsafePointer<AVFrame>, width: Int, height: Int) throws -> RGBImage {
        let count = width * 3 * height
        var failure: Error?
        let pixels = [UInt8](unsafeUninitializedCapacity: count + Self.slack) { buffer, initialized in
            do {
                try convert(frame, into: try header(wrapping: buffer.baseAddress!, width: width, height: height))
                initialized = count
            } catch { failure = error; initialized = 0 }
        }
        if let failure { throw failure }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Converts `image` into `destination`, whose format, size and buffers are already set. Its
    /// bytes are read where they lie when the array has `slack` past its end (as `rgbImage`'s
    /// have); any other image is copied into padded rows first.
    func convert(_ image: RGBImage, into destination: UnsafeMutablePointer<AVFrame>) throws {
        let rowBytes = image.width * 3
        try image.pixels.withUnsafeBufferPointer { pixels in
            if image.pixels.capacity - pixels.count >= Self.slack {
                try convert(
                    try header(wrapping: UnsafeMutablePointer(mutating: pixels.baseAddress!), width: image.width, height: image.height),
                    into: destination)
                return
            }
            let padded = try outputFrame(format: AV_PIX_FMT_RGB24, width: image.width, height: image.height)
            for y in 0..<image.height {
                (padded.pointee.data.0! + y * Int(padded.pointee.linesize.0)).update(from: pixels.baseAddress! + y * rowBytes, count: rowBytes)
            }
            try convert(padded, into: destination)
        }
    }

    /// A frame header with no buffer of its own, over packed RGB bytes for libswscale; valid
    /// until the next call.
    private func header(wrapping bytes: UnsafeMutablePointer<UInt8>, width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        if lent == nil { lent = av_frame_alloc() }
        guard let frame = lent else { throw GlimtError("out of memory") }
        frame.pointee.format = AV_PIX_FMT_RGB24.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        frame.pointee.data.0 = bytes
        frame.pointee.linesize.0 = Int32(width * 3)
        return frame
    }

    /// Bytes past a picture's end that SIMD code may touch (FFmpeg pads its own buffers by 64).
    static let slack = 64

    /// `frame` as three 16-bit planes at `width` x `height`, for sources deeper than 8 bits.
    func rgb16Image(from frame: UnsafePointer<AVFrame>, width: Int, height: Int) throws -> RGB16Image {
        let out = try convert(frame, to: AV_PIX_FMT_GBRP16LE, width: width, height: height)
        // GBRP keeps green, blue, red in planes 0, 1, 2.
        func plane(_ data: UnsafeMutablePointer<UInt8>?, _ stride: Int32) -> [UInt16] {
            [UInt16](unsafeUninitializedCapacity: width * height) { buffer, count in
                for y in 0..<height {
                    let row = UnsafeRawPointer(data! + y * Int(stride)).assumingMemoryBound(to: UInt16.self)
                    (buffer.baseAddress! + y * width).initialize(from: row, count: width)
                }
                count = width * height
            }
        }
        let d = out.pointee.data, s = out.pointee.linesize
        return RGB16Image(width: width, height: height, red: plane(d.2, s.2), green: plane(d.0, s.0), blue: plane(d.1, s.1))
    }

    /// Converts into a frame this converter owns and reuses; valid until the next call.
    func convert(_ frame: UnsafePointer<AVFrame>, to format: AVPixelFormat, width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        let out = try outputFrame(format: format, width: width, height: height)
        try convert(frame, into: out)
        return out
    }

    /// Converts `frame` into `destination`, whose format, size and buffers are already set.
    func convert(_ frame: UnsafePointer<AVFrame>, into destination: UnsafeMutablePointer<AVFrame>) throws {
        var source = AVPixelFormat(rawValue: frame.pointee.format)
        var sourceFull = frame.pointee.color_range == AVCOL_RANGE_JPEG
        // The deprecated "J" formats mean full range; naming it ourselves keeps libswscale from guessing.
        if let plain = Self.plainFormat(forJPEGFormat: source) { source = plain; sourceFull = true }
        var target = AVPixelFormat(rawValue: destination.pointee.format)
        var targetFull = destination.pointee.color_range != AVCOL_RANGE_MPEG
        if let plain = Self.plainFormat(forJPEGFormat: target) { target = plain; targetFull = true }

        // Shrinking to half or less (with `averageEveryShrink`, any shrink) averages areas: several
        // times faster than bicubic with full chroma, and no aliasing.
        let shrinking =
            averageEveryShrink
            ? destination.pointee.width < frame.pointee.width && destination.pointee.height < frame.pointee.height
            : frame.pointee.width >= 2 * destination.pointee.width && frame.pointee.height >= 2 * destination.pointee.height
        let filter = shrinking ? SWS_AREA | (flags & SWS_ACCURATE_RND) : flags
        scaler = sws_getCachedContext(
            scaler, frame.pointee.width, frame.pointee.height, source,
            destination.pointee.width, destination.pointee.height, target, filter, nil, nil, nil)
        guard let scaler else {
            let name = av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "unknown"
            throw GlimtError("cannot convert pixel format \(name)")
        }
        let sourceMatrix = sws_getCoefficients(matrix(of: frame))
        let targetMatrix = sws_getCoefficients(
            destination.pointee.colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_ITU601 : Self.swsMatrix(destination.pointee.colorspace) ?? SWS_CS_ITU601)
        _ = sws_setColorspaceDetails(scaler, sourceMatrix, sourceFull ? 1 : 0, targetMatrix, targetFull ? 1 : 0, 0, 1 << 16, 1 << 16)

        var sourceData = frame.pointee.data
        var sourceStrides = frame.pointee.linesize
        var targetData = destination.pointee.data
        var targetStrides = destination.pointee.linesize
        let rows = withUnsafePointer(to: &sourceData) { sourceTuple in
            sourceTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                withUnsafePointer(to: &sourceStrides) {
                    $0.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStride in
                        withUnsafePointer(to: &targetData) {
                            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { targetPlanes in
                                withUnsafePointer(to: &targetStrides) {
                                    $0.withMemoryRebound(to: Int32.self, capacity: 8) { targetStride in
                                        sws_scale(scaler, sourcePlanes, sourceStride, 0, frame.pointee.height, targetPlanes, targetStride)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rows == destination.pointee.height else {
            throw GlimtError("pixel conversion failed: \(rows < 0 ? ffmpegReason(rows) : "short output")")
        }
    }

    private func outputFrame(format: AVPixelFormat, width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        if let out = output, out.pointee.format == format.rawValue, out.pointee.width == Int32(width),
            out.pointee.height == Int32(height)
        {
            return out
        }
        av_frame_free(&output)
        guard let out = av_frame_alloc() else { throw GlimtError("out of memory") }
        out.pointee.format = format.rawValue
        out.pointee.width = Int32(width)
        out.pointee.height = Int32(height)
        out.pointee.color_range = AVCOL_RANGE_JPEG
        output = out
        // Aligned rows with slack: SIMD code may touch bytes past a row's end.
        let status = av_frame_get_buffer(out, 64)
        guard status >= 0 else { av_frame_free(&output); throw GlimtError("out of memory for a \(width)x\(height) picture") }
        return out
    }

    private func matrix(of frame: UnsafePointer<AVFrame>) -> Int32 {
        if let known = Self.swsMatrix(frame.pointee.colorspace) { return known }
        switch unlabelled {
        case .photo: return SWS_CS_ITU601
        case .video: return frame.pointee.height >= 720 || frame.pointee.width >= 1280 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    static func swsMatrix(_ space: AVColorSpace) -> Int32? {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return nil
        }
    }

    static func plainFormat(forJPEGFormat format: AVPixelFormat) -> AVPixelFormat? {
        switch format {
        case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P
        case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P
        case AV_PIX_FMT_YUVJ440P: return AV_PIX_FMT_YUV440P
        case AV_PIX_FMT_YUVJ411P: return AV_PIX_FMT_YUV411P
        default: return nil
        }
    }
}
