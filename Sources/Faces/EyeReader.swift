import Analysis
import Foundation
import Imaging

/// Measures whether a detected face's eyes are open: each eye is cut from the picture around the
/// detector's eye landmark, run through the iris landmark model, and its eyelid points give the
/// openness.
public struct EyeReader: EyeReading {
    public let model: IrisLandmark

    public init(model: IrisLandmark) { self.model = model }

    public static func shared() throws -> EyeReader { EyeReader(model: try IrisLandmark.shared()) }

    /// The side of an eye crop, in distances between the two eye centres. MediaPipe crops 2.3 times
    /// the distance between an eye's corners, and an eye is about 0.43 of the eye distance wide: one
    /// eye distance, so the eye fills the crop as the model was trained on.
    static let cropScale: Double = 1.0

    /// Lid pairs (upper point, lower point) of the 71-point contour, the middle three of the eye's
    /// eight columns; points 0 and 8 are its corners. The contour's first 16 points are the eye's
    /// outline: 0-8 the lower lid from the outer corner to the inner, 9-15 the upper lid.
    static let lidPairs = [(11, 3), (12, 4), (13, 5)]
    static let corners = (0, 8)

    public func eyes(of face: DetectedFace, in image: RGBImage) -> EyeOpenness {
        let (right, left) = Self.crops(of: face, in: image)
        return EyeOpenness(
            right: Self.openness(model.run(right, iris: false)), left: Self.openness(model.run(left, iris: false)))
    }

    /// The openness of the eye that shows more of itself: the one farther from the nose in the
    /// picture (a turned head shows its near eye wider, the far one edge-on). One run of the
    /// model instead of two for most sampled faces; a blink closes both eyes. A reading under
    /// `confirmBelow` is `confirmed` by the other eye.
    public func openness(of face: DetectedFace, in image: RGBImage) -> Float {
        confirmed(openness(ofCrop: Self.visibleCrop(of: face, in: image)), of: face, in: image)
    }

    /// The openness of an eye from its crop (`visibleCrop(of:in:)`).
    public func openness(ofCrop crop: RGBImage) -> Float { Self.openness(model.run(crop, iris: false)) }

    /// One eye's reading can dip by a third with the eye open (a glance down, a lid in shadow,
    /// the model's own noise) where a blink takes both eyes down together. So a reading of the
    /// visible eye under this is averaged with the other eye's: an eye open by any face's
    /// measure (0.35-0.5) reads over it, a blink's dip (under 70 % of that) under it.
    public static let confirmBelow: Float = 0.35

    /// `reading` (of `face`'s right eye in `image` when `right`, else its left), averaged with the
    /// other eye's reading when it is under `confirmBelow`. `right` defaults to the more
    /// visible eye, the one `openness(of:in:)` reads.
    public func confirmed(_ reading: Float, of face: DetectedFace, right: Bool? = nil, in image: RGBImage) -> Float {
        let read = right ?? Self.rightIsVisible(face.landmarks)
        return confirmed(reading, byCrop: Self.crop(of: face, right: !read, in: image))
    }

    /// `reading`, averaged with the reading of `other` (the other eye's crop, made only if
    /// needed) when it is under `confirmBelow`.
    public func confirmed(_ reading: Float, byCrop other: @autoclosure () -> RGBImage) -> Float {
        guard reading < Self.confirmBelow else { return reading }
        return (reading + openness(ofCrop: other())) / 2
    }

    /// The crop of the eye that shows more of itself (see `openness(of:in:)`).
    public static func visibleCrop(of face: DetectedFace, in image: RGBImage) -> RGBImage {
        crop(of: face, right: rightIsVisible(face.landmarks), in: image)
    }

    /// Whether the right eye (`landmarks[0]`) is the more visible one: farther from the nose.
    public static func rightIsVisible(_ landmarks: [Point]) -> Bool {
        precondition(landmarks.count == 5, "an eye crop needs the 5 detector landmarks")
        let nose = landmarks[2]
        func away(_ p: Point) -> Float { (p.x - nose.x) * (p.x - nose.x) + (p.y - nose.y) * (p.y - nose.y) }
        return away(landmarks[0]) >= away(landmarks[1])
    }

    /// The two 64x64 eye crops the model reads: each eye at the centre, the line from the right
    /// eye to the left one horizontal, the left eye mirrored (the model knows the right one only).
    public static func crops(of face: DetectedFace, in image: RGBImage) -> (right: RGBImage, left: RGBImage) {
        (crop(of: face, right: true, in: image), crop(of: face, right: false, in: image))
    }

    public static func crop(of face: DetectedFace, right isRight: Bool, in image: RGBImage) -> RGBImage {
        precondition(face.landmarks.count == 5, "eye crops need the 5 detector landmarks")
        let right = face.landmarks[0], left = face.landmarks[1]
        let dx = Double(left.x - right.x), dy = Double(left.y - right.y)
        let distance = max((dx * dx + dy * dy).squareRoot(), 1)
        let size = IrisLandmark.inputSize
        // Rotation by minus the eye line's angle, and scale: a = s * conj(unit eye line).
        let s = Double(size) / (cropScale * distance)
        let a = (re: s * dx / distance, im: -s * dy / distance)
        let eye = isRight ? right : left
        let x = Double(eye.x), y = Double(eye.y), half = Double(size) / 2
        let transform = FaceAlignment.Similarity(a: a, b: (re: half - (a.re * x - a.im * y), im: half - (a.im * x + a.re * y)))
        let crop = FaceAlignment.warp(image, transform: transform, width: size, height: size)
        return isRight ? crop : FaceAlignment.mirrored(crop)
    }

    /// Lid gap over eye width: the mean distance of the lid pairs over the distance between the corners.
    public static func openness(_ output: IrisLandmark.Output) -> Float {
        func distance(_ i: Int, _ j: Int) -> Float {
            let p = output.point(i), q = output.point(j)
            return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        }
        let gap = lidPairs.map { distance($0.0, $0.1) }.reduce(0, +) / Float(lidPairs.count)
        return gap / max(distance(corners.0, corners.1), 1e-6)
    }
}
