import Analysis
import Imaging

/// The picture with every face outlined and numbered, so a person can say which face is theirs.
public enum ContactSheet {
    /// How one face is drawn: its outline and label colour, and the label's text.
    public struct Mark: Sendable {
        public var color: RGB
        public var label: String

        public init(color: RGB, label: String) {
            self.color = color
            self.label = label
        }

        /// The plain mark: yellow, with the face's 1-based number.
        public static func numbered(_ number: Int) -> Mark { Mark(color: .yellow, label: "\(number)") }
    }

    /// One mark per face, numbered 1, 2, ... as the CLI shows them when `marks` is nil; the sheet
    /// is at most `maxSide` pixels long.
    public static func draw(_ image: RGBImage, faces: [DetectedFace], marks: [Mark]? = nil, maxSide: Int = 1600) -> RGBImage {
        let marks = marks ?? faces.indices.map { Mark.numbered($0 + 1) }
        precondition(marks.count == faces.count, "one mark per face")
        var sheet = Resize.fitting(image, longSide: maxSide)
        let s = Float(sheet.width) / Float(image.width)
        let boxes = faces.map { $0.box.scaled(by: s) }
        let thickness = max(1, max(sheet.width, sheet.height) / 600)
        for (box, mark) in zip(boxes, marks) { sheet.outline(box, mark.color, thickness: thickness) }
        // Labels after all outlines, sized to their face so crowds stay readable.
        for (box, mark) in zip(boxes, marks) {
            let scale = max(1, min(max(sheet.width, sheet.height) / 300, Int(box.height / 16)))
            let w = BitmapFont.width(mark.label, scale: scale) + 4 * scale, h = BitmapFont.height(scale: scale) + 4 * scale
            let x = Int(box.center.x) - w / 2
            let y = Int(box.y) - h >= 0 ? Int(box.y) - h : Int(box.maxY)
            sheet.label(mark.label, x: x, y: y, scale: scale, mark.color)
        }
        return sheet
    }
}
