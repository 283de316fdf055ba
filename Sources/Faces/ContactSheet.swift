import Imaging

/// The picture with every face outlined and numbered, so a person can say which face is theirs.
public enum ContactSheet {
    /// Numbers are 1-based, as the CLI shows them; the sheet is at most `maxSide` pixels long.
    public static func draw(_ image: RGBImage, faces: [DetectedFace], maxSide: Int = 1600) -> RGBImage {
        var sheet = Resize.fitting(image, longSide: maxSide)
        let s = Float(sheet.width) / Float(image.width)
        let boxes = faces.map { $0.box.scaled(by: s) }
        let thickness = max(1, max(sheet.width, sheet.height) / 600)
        for box in boxes { sheet.outline(box, .yellow, thickness: thickness) }
        // Labels after all outlines, sized to their face so crowds stay readable.
        for (i, box) in boxes.enumerated() {
            let text = "\(i + 1)"
            let scale = max(1, min(max(sheet.width, sheet.height) / 300, Int(box.height / 16)))
            let w = BitmapFont.width(text, scale: scale) + 4 * scale, h = BitmapFont.height(scale: scale) + 4 * scale
            let x = Int(box.center.x) - w / 2
            let y = Int(box.y) - h >= 0 ? Int(box.y) - h : Int(box.maxY)
            sheet.label(text, x: x, y: y, scale: scale, .yellow)
        }
        return sheet
    }
}
