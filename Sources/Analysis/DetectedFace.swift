import Imaging

/// A face found by the detector, in the pixel coordinates of the image given to `detect`.
public struct DetectedFace: Codable, Equatable, Sendable {
    public var box: Box
    /// Right eye, left eye, nose tip, right mouth corner, left mouth corner (the person's right
    /// and left: the right eye is on the image's left side in a frontal face).
    public var landmarks: [Point]
    /// Detector confidence in [0, 1]: sqrt(cls * obj).
    public var score: Float

    public init(box: Box, landmarks: [Point], score: Float) {
        self.box = box
        self.landmarks = landmarks
        self.score = score
    }
}
