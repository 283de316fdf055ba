import Foundation
import Imaging

/// How usable a detected face is, in [0, 1]: our stand-in for Apple's face capture quality. It
/// drives the frame score's "clear face" part and picks the most prominent face for framing.
///
/// quality = 0.20 * confidence + 0.30 * size + 0.20 * sharpness + 0.30 * frontalness, where
/// - confidence = detector score mapped from [0.5, 0.95] onto [0, 1];
/// - size = the face box's shorter side in source pixels mapped from [24, 112] onto [0, 1]
///   (SFace sees 112 x 112; a face smaller than 24 px carries little identity);
/// - sharpness = `Sharpness.normalized` of the Laplacian variance of the aligned 112 x 112 crop;
/// - frontalness = product of a yaw term and a roll term from the landmarks: yaw from how far the
///   nose tip sits from the eyes' midpoint, relative to the eye distance, along the eye line
///   (0 at frontal, about 0.5 in profile), mapped so 0 -> 1 and >= 0.45 -> 0; roll from the eye
///   line's angle, 1 up to 15 degrees and falling to 0.5 at 60 degrees or more (alignment removes roll,
///   but strongly tilted faces are rarer in good frames).
public struct FaceQuality: Codable, Equatable, Sendable {
    public var value: Float
    public var confidence: Float
    public var size: Float
    public var sharpness: Float
    public var frontalness: Float

    public static func measure(face: DetectedFace, alignedCrop: RGBImage) -> FaceQuality {
        let confidence = clamp01((face.score - 0.5) / 0.45)
        let size = clamp01((min(face.box.width, face.box.height) - 24) / (112 - 24))
        let sharpness = Float(
            Sharpness.normalized(Sharpness.laplacianVariance(grey: Grey.luma(alignedCrop), width: alignedCrop.width, height: alignedCrop.height)))
        let frontal = frontalness(face.landmarks)
        let value = 0.20 * confidence + 0.30 * size + 0.20 * sharpness + 0.30 * frontal
        return FaceQuality(value: value, confidence: confidence, size: size, sharpness: sharpness, frontalness: frontal)
    }

    static func frontalness(_ lm: [Point]) -> Float {
        guard lm.count == 5 else { return 0 }
        let re = lm[0], le = lm[1], nose = lm[2]
        let ex = le.x - re.x, ey = le.y - re.y
        let eyeDist = (ex * ex + ey * ey).squareRoot()
        guard eyeDist > 0 else { return 0 }
        let mid = Point((re.x + le.x) / 2, (re.y + le.y) / 2)
        // Nose offset along the eye line, in eye distances.
        let yaw = abs(((nose.x - mid.x) * ex + (nose.y - mid.y) * ey) / (eyeDist * eyeDist))
        let yawTerm = clamp01(1 - yaw / 0.45)
        let roll = abs(Float(atan2(Double(ey), Double(ex))) * 180 / .pi)
        let rollTerm = roll <= 15 ? 1 : max(0.5, 1 - 0.5 * (roll - 15) / 45)
        return yawTerm * rollTerm
    }

    @inline(__always) static func clamp01(_ x: Float) -> Float { min(1, max(0, x)) }
}
