import Analysis
import Foundation
import Imaging
import TensorLite

extension DetectedFace {
    func scaled(by s: Float) -> DetectedFace {
        DetectedFace(box: box.scaled(by: s), landmarks: landmarks.map { Point($0.x * s, $0.y * s) }, score: score)
    }
}

/// YuNet plus the post-processing of OpenCV's FaceDetectorYN: pad to a multiple of 32, run the
/// network, decode each grid cell's box and landmarks, keep scores over the threshold, and
/// suppress overlaps (NMS) highest score first.
public struct FaceDetector: FaceDetecting {
    /// Minimum sqrt(cls * obj). OpenCV Zoo's demo uses 0.9; 0.6 keeps small and turned faces in
    /// crowds, and a non-face that slips through fails identity and face quality later anyway.
    public var scoreThreshold: Float = 0.6
    /// Overlap (IoU) above which the lower-scoring of two boxes is dropped.
    public var nmsThreshold: Float = 0.3
    public var topK = 5000
    /// Long side of the image the network sees; nil runs at the image's own size. Larger finds
    /// smaller faces (a face needs about 10 network pixels) and costs quadratically more.
    public var detectionSize: Int? = FaceDetector.standardSize
    /// The long side faces are looked for at unless asked otherwise (photos and analysis frames).
    public static let standardSize = 640
    /// Sides a person may ask for.
    public static let sizes = 64...8192

    private let network: YuNet

    public init(network: YuNet) { self.network = network }

    public static func shared() throws -> FaceDetector { FaceDetector(network: try YuNet.shared()) }

    /// Faces in `image`, highest score first, in the image's own pixel coordinates.
    public func detect(_ image: RGBImage) -> [DetectedFace] { detect(image, profile: nil) }

    package func detect(_ image: RGBImage, profile: LayerProfile?) -> [DetectedFace] {
        var input = image
        if let size = detectionSize { input = Resize.fitting(image, longSide: size) }
        let scale = Float(image.width) / Float(input.width)
        let faces = detectAtNetworkSize(input, profile: profile)
        return scale == 1 ? faces : faces.map { $0.scaled(by: scale) }
    }

    /// Faces in an image that is run through the network as it is (only padded).
    package func detectAtNetworkSize(_ image: RGBImage, profile: LayerProfile? = nil) -> [DetectedFace] {
        let levels = network.run(image, profile: profile)
        return profile.measure("decode+nms") { suppress(Self.decode(levels, threshold: scoreThreshold)) }
    }

    /// Zero padding on the bottom and right, as FaceDetectorYN does: the network needs sides
    /// divisible by 32, and padding (not stretching) keeps coordinates unchanged.
    public static func padToMultipleOf32(_ image: RGBImage) -> RGBImage {
        let w = roundUp(image.width, to: 32), h = roundUp(image.height, to: 32)
        if w == image.width && h == image.height { return image }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<image.height {
                    let n = image.width * 3
                    (dst.baseAddress! + y * w * 3).update(from: src.baseAddress! + y * n, count: n)
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// Every cell whose score passes the threshold, as a face: centre offset and log-size for the
    /// box, offsets for the landmarks, all in units of the level's stride.
    static func decode(_ levels: [YuNet.Level], threshold: Float) -> [DetectedFace] {
        var faces: [DetectedFace] = []
        for level in levels {
            let s = Float(level.stride)
            for idx in 0..<(level.rows * level.cols) {
                let cls = min(max(level.cls[idx], 0), 1), obj = min(max(level.obj[idx], 0), 1)
                let score = (cls * obj).squareRoot()
                guard score >= threshold else { continue }
                let r = Float(idx / level.cols), c = Float(idx % level.cols)
                let b = idx * 4
                let cx = (c + level.bbox[b]) * s, cy = (r + level.bbox[b + 1]) * s
                let w = Foundation.exp(level.bbox[b + 2]) * s, h = Foundation.exp(level.bbox[b + 3]) * s
                let k = idx * 10
                let landmarks = (0..<5).map { n in Point((level.kps[k + 2 * n] + c) * s, (level.kps[k + 2 * n + 1] + r) * s) }
                faces.append(DetectedFace(box: Box(x: cx - w / 2, y: cy - h / 2, width: w, height: h), landmarks: landmarks, score: score))
            }
        }
        return faces
    }

    /// Greedy non-maximum suppression as OpenCV's NMSBoxes does it for FaceDetectorYN: boxes
    /// truncated to whole pixels for the overlap test, ties kept in detection order.
    func suppress(_ faces: [DetectedFace]) -> [DetectedFace] {
        let order = faces.indices.sorted { faces[$0].score > faces[$1].score || (faces[$0].score == faces[$1].score && $0 < $1) }
        let candidates = order.prefix(topK)
        func intBox(_ b: Box) -> Box {
            Box(x: b.x.rounded(.towardZero), y: b.y.rounded(.towardZero), width: b.width.rounded(.towardZero), height: b.height.rounded(.towardZero))
        }
        var kept: [Int] = []
        for i in candidates {
            let bi = intBox(faces[i].box)
            if kept.allSatisfy({ intBox(faces[$0].box).intersectionOverUnion(bi) <= nmsThreshold }) { kept.append(i) }
        }
        return kept.map { faces[$0] }
    }
}
