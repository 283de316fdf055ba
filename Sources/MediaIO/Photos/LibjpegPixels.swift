import CFFmpeg
import Foundation
import GlimtCore
import Imaging

/// A JPEG photo's RGB pixels as libjpeg gives them with its defaults, which is what OpenCV's
/// imread gives and what the face models' golden numbers were made on: the planes of our own
/// decoder (`JPEGPlanes`, libjpeg's integer IDCT), else FFmpeg's (arithmetic-coded and other rare
/// kinds: its IDCT rounds differently by a level here and there), converted by
/// `JPEGColourConversion`.
///
/// Measured against cv2.imread on the shared photos and on JPEGs written at every subsampling,
/// sequential and progressive: identical. FFmpeg's planes come within 0.02-0.05 levels on
/// average (at most 3); libswscale's conversion was 0.02-0.33 (up to 11) on the photos and
/// 0.3-0.6 (up to 26) on 4:2:0, 4:2:2 and 4:1:1 pictures.
enum LibjpegPixels {
    /// A photo is tens of megabytes at most; past this FFmpeg's planes will do.
    static let maxBytes = 256 << 20

    /// nil when the frame is not a YCbCr or greyscale JPEG at its own size (libswscale's turn
    /// then). `bytes` are the file's (nil when past `maxBytes`: FFmpeg's planes are used).
    static func rgbImage(bytes: [UInt8]?, frame: UnsafePointer<AVFrame>) -> RGBImage? {
        let f = frame.pointee
        let width = Int(f.width), height = Int(f.height)
        guard f.colorspace == AVCOL_SPC_UNSPECIFIED || f.colorspace == AVCOL_SPC_BT470BG || f.colorspace == AVCOL_SPC_SMPTE170M
        else { return nil }
        let format = AVPixelFormat(rawValue: f.format)
        let subsampling = Self.subsampling(format)
        guard subsampling != nil || format == AV_PIX_FMT_GRAY8 else { return nil }

        if let bytes, let jpeg = JPEGPlanes(bytes: bytes, maxPixels: width * height),
            jpeg.width == width, jpeg.height == height, let image = convert(jpeg, subsampling)
        {
            return image
        }
        guard let y = f.data.0 else { return nil }
        let luma = JPEGColourConversion.Plane(base: y, stride: Int(f.linesize.0), width: width, rows: height)
        guard let subsampling else { return grey(luma, width: width, height: height) }
        guard let cb = f.data.1, let cr = f.data.2 else { return nil }
        let chromaWidth = (width + subsampling.across - 1) / subsampling.across
        let chromaRows = (height + subsampling.down - 1) / subsampling.down
        return JPEGColourConversion.rgb(
            width: width, height: height, luma: luma,
            blue: .init(base: cb, stride: Int(f.linesize.1), width: chromaWidth, rows: chromaRows),
            red: .init(base: cr, stride: Int(f.linesize.2), width: chromaWidth, rows: chromaRows),
            subsampling: subsampling)
    }

    /// Our decoder's planes, if they are laid out as FFmpeg's frame says (else nil).
    private static func convert(_ jpeg: JPEGPlanes, _ subsampling: JPEGColourConversion.Subsampling?) -> RGBImage? {
        let c = jpeg.components
        func plane(_ p: UnsafeBufferPointer<UInt8>, _ component: JPEGPlanes.Component) -> JPEGColourConversion.Plane? {
            p.baseAddress.map { .init(base: $0, stride: component.stride, width: component.width, rows: component.height) }
        }
        if c.count == 1, subsampling == nil {
            return c[0].samples.withUnsafeBufferPointer { p in plane(p, c[0]).map { grey($0, width: jpeg.width, height: jpeg.height) } }
        }
        guard c.count == 3, let subsampling, c[1].horizontal == 1, c[1].vertical == 1, c[2].horizontal == 1, c[2].vertical == 1,
            c[0].horizontal == subsampling.across, c[0].vertical == subsampling.down
        else { return nil }
        return c[0].samples.withUnsafeBufferPointer { y in
            c[1].samples.withUnsafeBufferPointer { cb in
                c[2].samples.withUnsafeBufferPointer { cr in
                    guard let luma = plane(y, c[0]), let blue = plane(cb, c[1]), let red = plane(cr, c[2]) else { return nil }
                    return JPEGColourConversion.rgb(
                        width: jpeg.width, height: jpeg.height, luma: luma, blue: blue, red: red,
                        subsampling: subsampling)
                }
            }
        }
    }

    /// libjpeg's greyscale to RGB: the sample three times.
    private static func grey(_ luma: JPEGColourConversion.Plane, width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let row = luma.base + y * luma.stride
            for x in 0..<width {
                let v = row[x], o = (y * width + x) * 3
                pixels[o] = v; pixels[o + 1] = v; pixels[o + 2] = v
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private static func subsampling(_ format: AVPixelFormat) -> JPEGColourConversion.Subsampling? {
        switch format {
        case AV_PIX_FMT_YUVJ444P: return .init(across: 1, down: 1)
        case AV_PIX_FMT_YUVJ422P: return .init(across: 2, down: 1)
        case AV_PIX_FMT_YUVJ420P: return .init(across: 2, down: 2)
        case AV_PIX_FMT_YUVJ440P: return .init(across: 1, down: 2)
        case AV_PIX_FMT_YUVJ411P: return .init(across: 4, down: 1)
        default: return nil
        }
    }
}
