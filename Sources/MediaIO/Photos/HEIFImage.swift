import CFFmpeg
import GlimtCore
import Imaging

/// A HEIF photo (HEIC: HEVC pictures in the HEIF container; AVIF: AV1 ones), read by glimt's own
/// container parser because FFmpeg before 7.1 has no HEIF demuxer, and decoded tile by tile with
/// libavcodec.
public struct HEIFPicture: Sendable {
    /// Upright: `clap`, `irot` and `imir` applied in the order the file associates them.
    public let image: RGBImage
    /// The Exif item of the primary picture. Its orientation is NOT applied: in HEIF, `irot` and
    /// `imir` are the orientation (ISO/IEC 23008-12), and the Exif tag repeats them for old
    /// readers, as libheif, iOS and pillow-heif agree.
    public let exif: EXIF?
}

/// Decoding of a HEIF file's primary picture: a coded HEVC or AV1 item, a `grid` of them, or an
/// `iden` of either, with its transformative properties.
public enum HEIFImage {
    /// Derived pictures deeper than this (an `iden` of an `iden` ...) are refused.
    static let maxDerivationDepth = 8
    /// An Exif item larger than this is not read (a camera writes tens of KB).
    static let maxExifBytes = 1 << 20

    public static func decode(path: String) throws -> HEIFPicture {
        do {
            return try decode(try HEIFFileBytes(path: path))
        } catch let error as GlimtError {
            throw error.at(path)
        }
    }

    /// A HEIF-branded file with a `moov` track and no `meta` box: an image sequence without items,
    /// which FFmpeg's mov demuxer reads as it reads any track.
    public static func isTrackOnly(path: String) -> Bool {
        guard let boxes = try? HEIFFileBytes(path: path).topLevelBoxes() else { return false }
        return boxes.contains { $0.type == "moov" } && !boxes.contains { $0.type == "meta" }
    }

    /// A file already in memory, for the tests; errors name no file.
    static func decode(bytes: [UInt8]) throws -> HEIFPicture {
        try decode(HEIFFileBytes(bytes: bytes))
    }

    private static func decode(_ file: HEIFFileBytes) throws -> HEIFPicture {
        let container = try HEIFContainer(file: file)
        let decoding = HEIFDecoding(container: container)
        let image = try decoding.picture(container.primary, visiting: [])
        let exifItem =
            container.descriptions(of: container.primary, itemType: "Exif").first
            ?? container.items.values.filter { $0.type == "Exif" }.map(\.id).min()
        // Damaged EXIF does not cost the picture, as with JPEG.
        let exif = exifItem.flatMap { try? container.data(of: $0, limit: maxExifBytes) }.flatMap { EXIF(heifItem: $0) }
        return HEIFPicture(image: image, exif: exif)
    }
}

/// One decode: the container, and the decoder kept while items share a configuration.
private final class HEIFDecoding {
    let container: HEIFContainer
    private var decoder: HEIFItemDecoder?
    private let converter = PixelConverter(unlabelled: .photo)

    init(container: HEIFContainer) { self.container = container }

    /// Item `id` decoded and transformed. `visiting` holds the derived items above it, so a
    /// reference back to one of them is found before it loops.
    func picture(_ id: Int, visiting: [Int]) throws -> RGBImage {
        guard !visiting.contains(id) else { throw GlimtError("truncated or corrupt HEIF: item references loop back to item \(id)") }
        guard visiting.count <= HEIFImage.maxDerivationDepth else {
            throw GlimtError("derived pictures are nested more than \(HEIFImage.maxDerivationDepth) deep")
        }
        let item = try container.item(id)
        let properties = try understoodProperties(of: id)
        var image: RGBImage
        switch item.type {
        case "hvc1", "av01":
            image = try coded(id, properties: properties, inherited: nil)
        case "grid":
            image = try grid(id, properties: properties, visiting: visiting + [id])
        case "iden":
            let sources = container.referenced(from: id, type: "dimg")
            guard sources.count == 1 else {
                throw GlimtError("truncated or corrupt HEIF: the 'iden' item \(id) refers to \(sources.count) pictures, not 1")
            }
            image = try picture(sources[0], visiting: visiting + [id])
        default:
            throw GlimtError("the picture (item \(id)) is of type '\(item.type)', which glimt cannot decode")
        }
        return try transformed(image, by: properties, item: id)
    }

    private func understoodProperties(of id: Int) throws -> [HEIFProperty] {
        let associated = container.properties(of: id)
        if let unknown = associated.first(where: { $0.essential && !$0.property.isUnderstood }) {
            throw GlimtError("item \(id) has the essential property '\(unknown.property.name)', which glimt cannot apply")
        }
        return associated.map(\.property)
    }

    // MARK: Coded pictures

    /// The nclx colour codes of a picture, or of the grid it is a tile of.
    private typealias Colour = (matrix: Int, fullRange: Bool)

    private func coded(_ id: Int, properties: [HEIFProperty], inherited: Colour?) throws -> RGBImage {
        let codec: HEIFItemDecoder.Codec = try container.item(id).type == "av01" ? .av1 : .hevc
        var configuration: [UInt8]?
        var colour = inherited
        for property in properties {
            switch property {
            case .hevcConfiguration(let bytes) where codec == .hevc: configuration = configuration ?? bytes
            case .av1Configuration(let bytes) where codec == .av1: configuration = configuration ?? bytes
            case .colourCodes(_, _, let matrix, let fullRange): colour = (matrix, fullRange)
            case .size(let width, let height): try checkSize(width, height)
            default: break
            }
        }
        guard let configuration else {
            throw GlimtError("truncated or corrupt HEIF: item \(id) has no '\(codec.configurationBox)' decoder configuration")
        }
        let data = try container.data(of: id)
        if decoder?.codec != codec || decoder?.configuration != configuration {
            decoder = nil  // one decoder at a time
            decoder = try HEIFItemDecoder(codec: codec, configuration: configuration)
        }
        guard let decoder else { throw GlimtError("out of memory") }
        let frame = try decoder.decode(data, item: id)
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        try checkSize(width, height)
        // libavcodec reports a full-range bitstream as a "J" format, which PixelConverter reads as
        // full range whatever the frame says: name the range on the frame instead.
        if let plain = PixelConverter.plainFormat(forJPEGFormat: AVPixelFormat(rawValue: frame.pointee.format)) {
            frame.pointee.format = plain.rawValue
            frame.pointee.color_range = AVCOL_RANGE_JPEG
        }
        // The container's nclx wins over the bitstream's; with neither, HEIF pictures are full range.
        if let colour {
            frame.pointee.colorspace = AVColorSpace(rawValue: UInt32(colour.matrix))
            frame.pointee.color_range = colour.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        } else if frame.pointee.color_range == AVCOL_RANGE_UNSPECIFIED {
            frame.pointee.color_range = AVCOL_RANGE_JPEG
        }
        return try converter.rgbImage(from: frame, width: width, height: height)
    }

    private func checkSize(_ width: Int, _ height: Int) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard overflow || pixels > MediaLimits.maxPixels || width > MediaLimits.maxPixels || height > MediaLimits.maxPixels else { return }
        guard !overflow, width < 1 << 31, height < 1 << 31 else {
            throw GlimtError("picture too large: \(width)x\(height), the limit is \(MediaLimits.maxPixels / 1_000_000) MP")
        }
        throw GlimtError(MediaLimits.tooLargeReason(width: width, height: height))
    }

    // MARK: Grids (ISO/IEC 23008-12 6.6.2.3)

    private func grid(_ id: Int, properties: [HEIFProperty], visiting: [Int]) throws -> RGBImage {
        var r = HEIFByteReader(try container.data(of: id, limit: 64), range: 0..<64, box: "grid")
        let version = try r.u8()
        guard version == 0 else { throw GlimtError("the grid (item \(id)) is of version \(version), which glimt does not know") }
        let wide = try r.u8() & 1 != 0
        let rows = Int(try r.u8()) + 1, columns = Int(try r.u8()) + 1
        let width = wide ? try r.u32() : try r.u16(), height = wide ? try r.u32() : try r.u16()
        guard width > 0, height > 0 else { throw GlimtError("truncated or corrupt HEIF: the grid picture is \(width)x\(height) pixels") }
        try checkSize(width, height)
        let tiles = container.referenced(from: id, type: "dimg")
        guard tiles.count == rows * columns else {
            throw GlimtError("truncated or corrupt HEIF: the grid of \(columns)x\(rows) tiles names \(tiles.count) tiles")
        }
        var inherited: Colour?
        for case .colourCodes(_, _, let matrix, let fullRange) in properties { inherited = (matrix, fullRange) }

        var canvas: [UInt8] = []
        var tileWidth = 0, tileHeight = 0
        for (index, tile) in tiles.enumerated() {
            guard !visiting.contains(tile) else { throw GlimtError("truncated or corrupt HEIF: item references loop back to item \(tile)") }
            let item = try container.item(tile)
            guard item.type == "hvc1" || item.type == "av01" else {
                throw GlimtError("the grid's tile \(index + 1) (item \(tile)) is of type '\(item.type)', not a coded picture")
            }
            let image = try coded(tile, properties: try understoodProperties(of: tile), inherited: inherited)
            if index == 0 {
                (tileWidth, tileHeight) = (image.width, image.height)
                // Tiles cover the picture, and the last column and row reach into it (the spec's rule).
                guard columns * tileWidth >= width, rows * tileHeight >= height,
                    (columns - 1) * tileWidth < width, (rows - 1) * tileHeight < height
                else {
                    throw GlimtError(
                        "truncated or corrupt HEIF: \(columns)x\(rows) tiles of \(tileWidth)x\(tileHeight) do not fit the grid's \(width)x\(height) picture"
                    )
                }
                // Allocated once a tile has shown the grid is real, not on the word of 8 bytes.
                canvas = [UInt8](repeating: 0, count: width * height * 3)
            } else if image.width != tileWidth || image.height != tileHeight {
                throw GlimtError(
                    "truncated or corrupt HEIF: the grid's tile \(index + 1) is \(image.width)x\(image.height), the first is \(tileWidth)x\(tileHeight)"
                )
            }
            let x0 = (index % columns) * tileWidth, y0 = (index / columns) * tileHeight
            // Tiles at the right and bottom edges are cropped to the grid's size.
            let copyWidth = min(tileWidth, width - x0), copyHeight = min(tileHeight, height - y0)
            guard copyWidth > 0, copyHeight > 0 else { continue }
            image.pixels.withUnsafeBufferPointer { source in
                canvas.withUnsafeMutableBufferPointer { target in
                    for y in 0..<copyHeight {
                        let from = source.baseAddress! + y * tileWidth * 3
                        let to = target.baseAddress! + ((y0 + y) * width + x0) * 3
                        to.update(from: from, count: copyWidth * 3)
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: canvas)
    }

    // MARK: Transformations (ISO/IEC 23008-12 6.5.10-6.5.12)

    /// `image` with the item's `clap`, `irot` and `imir` applied, in the order they are listed.
    private func transformed(_ image: RGBImage, by properties: [HEIFProperty], item: Int) throws -> RGBImage {
        var image = image
        for property in properties {
            switch property {
            case .cleanAperture(let aperture):
                guard let r = aperture.rectangle(imageWidth: image.width, imageHeight: image.height) else {
                    throw GlimtError(
                        "truncated or corrupt HEIF: the 'clap' crop of item \(item) is not inside its \(image.width)x\(image.height) picture")
                }
                image = Crop.crop(image, x: r.x, y: r.y, width: r.width, height: r.height)
            case .rotation(let turns):
                // irot turns anticlockwise; ImageOrientation names the clockwise turn that shows it upright.
                let orientation: [ImageOrientation] = [.upright, .rotated270, .rotated180, .rotated90]
                image = orientation[turns & 3].apply(to: image)
            case .mirror(let mode):
                image = (mode == 0 ? ImageOrientation.flipped : .mirrored).apply(to: image)
            default:
                break
            }
        }
        return image
    }
}
