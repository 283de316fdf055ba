/// The picture with every face outlined and numbered, so a person can say which face is theirs.
public enum ContactSheet {
    /// Numbers are 1-based, as the CLI shows them; the sheet is at most `maxSide` pixels long.
    public static func draw(_ image: RGBImage, faces: [DetectedFace], maxSide: Int = 1600) -> RGBImage {
        var sheet = Resize.fitting(image, longSide: maxSide)
        let s = Float(sheet.width) / Float(image.width)
        let thickness = max(2, max(sheet.width, sheet.height) / 400)
        let scale = max(2, max(sheet.width, sheet.height) / 300)
        for (i, face) in faces.enumerated() {
            let box = face.box.scaled(by: s)
            sheet.outline(box, .yellow, thickness: thickness)
            let labelHeight = BitmapFont.height(scale: scale) + 4 * scale
            let y = Int(box.y) - labelHeight >= 0 ? Int(box.y) - labelHeight : Int(box.maxY)
            sheet.label("\(i + 1)", x: Int(box.x), y: y, scale: scale, .yellow)
        }
        return sheet
    }
}
