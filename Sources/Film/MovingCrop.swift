import Imaging
import MediaIO

/// A clip cut with its own crop for each frame (`FilmSegment.crops`). The decoder hands over the
/// part of the picture that any of the crops touches, scaled no finer than the film needs (so a
/// 4K clip is not converted whole), and each frame's crop is cut from that and scaled to the
/// film's size. Where a crop reaches past the picture the crop keeps its size and place, so what
/// it follows stays where it was put, and the film shows the clip's colours there, washed out
/// (`backdrop`): black bars would box every such second in like a letterbox.
struct MovingCrop {
    let crops: [Box]
    /// What the decoder hands over: `area` of the upright picture at `region.width` x `region.height`.
    let region: FrameRegion
    let width: Int
    let height: Int
    /// The decoded part in the picture's pixels (whole pixels, inside the picture).
    private let area: Box
    /// Decoded pixels per picture pixel, across and down.
    private let scaleX: Float
    private let scaleY: Float
    /// The clip's first frame shrunk to `backdropRows` rows (its colours, no shapes), at half its
    /// brightness, enlarged to the film's size; made when first needed.
    private var backdrop: RGBImage?
    static let backdropRows = 6

    /// Nil when no crop touches the picture, or one is not a rectangle.
    init?(crops: [Box], pictureWidth: Int, pictureHeight: Int, width: Int, height: Int) {
        guard !crops.isEmpty, crops.allSatisfy({ $0.isFinite && $0.width >= 1 && $0.height >= 1 }) else { return nil }
        let x0 = crops.map(\.x).min()!, y0 = crops.map(\.y).min()!
        let x1 = crops.map(\.maxX).max()!, y1 = crops.map(\.maxY).max()!
        let left = max(0, Int(x0.rounded(.down))), top = max(0, Int(y0.rounded(.down)))
        let right = min(pictureWidth, Int(x1.rounded(.up))), bottom = min(pictureHeight, Int(y1.rounded(.up)))
        guard right - left >= 1, bottom - top >= 1 else { return nil }
        area = Box(x: Float(left), y: Float(top), width: Float(right - left), height: Float(bottom - top))
        // As fine as the most enlarged frame needs, never finer than the picture itself.
        let finest = min(1, max(Float(width) / crops.map(\.width).min()!, Float(height) / crops.map(\.height).min()!))
        let w = max(2, Int((area.width * finest).rounded())), h = max(2, Int((area.height * finest).rounded()))
        region = FrameRegion(crop: area, width: w, height: h)
        scaleX = Float(w) / area.width
        scaleY = Float(h) / area.height
        self.crops = crops
        self.width = width
        self.height = height
    }

    /// Frame `k`'s crop of `decoded` (a picture of `region`) at the film's size. Frames past the
    /// last crop keep it.
    mutating func frame(_ k: Int, of decoded: RGBImage) -> RGBImage {
        let c = crops[min(max(k, 0), crops.count - 1)]
        // The crop in decoded pixels, and the part of it the decoded picture holds.
        let cx = (c.x - area.x) * scaleX, cy = (c.y - area.y) * scaleY
        let cw = c.width * scaleX, ch = c.height * scaleY
        let ix0 = max(0, Int(cx.rounded())), iy0 = max(0, Int(cy.rounded()))
        let ix1 = min(decoded.width, Int((cx + cw).rounded())), iy1 = min(decoded.height, Int((cy + ch).rounded()))
        let across = Float(width) / cw, down = Float(height) / ch
        let ox0 = Int(((Float(ix0) - cx) * across).rounded()), oy0 = Int(((Float(iy0) - cy) * down).rounded())
        let ox1 = min(width, Int(((Float(ix1) - cx) * across).rounded())), oy1 = min(height, Int(((Float(iy1) - cy) * down).rounded()))
        if backdrop == nil {
            let rows = Self.backdropRows, columns = max(1, Int((Float(rows * width) / Float(height)).rounded()))
            var colours = Resize.resize(decoded, width: columns, height: rows)
            colours.shade(x: 0, y: 0, width: columns, height: rows, .black, alpha: 0.5)
            backdrop = Resize.resize(colours, width: width, height: height)
        }
        guard ix1 > ix0, iy1 > iy0, ox1 > ox0, oy1 > oy0 else { return backdrop! }
        let inside = Resize.resize(
            Crop.crop(decoded, x: ix0, y: iy0, width: ix1 - ix0, height: iy1 - iy0), width: ox1 - ox0, height: oy1 - oy0)
        if ox0 == 0, oy0 == 0, inside.width == width, inside.height == height { return inside }
        var out = backdrop!
        out.paste(inside, x: ox0, y: oy0)
        return out
    }
}
