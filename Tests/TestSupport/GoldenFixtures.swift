import Foundation
import Imaging

// The schemas of the golden JSON fixtures (Fixtures/PROVENANCE.md and yunet/README.md describe
// them), as far as the tests read them. Decoded with `Fixtures.decode`, so a fixture whose schema
// changes fails the test reading it, naming the key, instead of crashing the test process.

/// `sface/golden.json`, one entry per aligned crop.
public struct SFaceGoldenEntry: Decodable {
    public let name: String
    public let file: String
    /// onnxruntime's raw 128-d `fc1`.
    public let embedding: Floats
}

/// `sface/layers.json`: activations of one crop, sampled layer by layer.
public struct SFaceLayerProbe: Decodable {
    public struct Layer: Decodable {
        public let name: String
        /// NCHW.
        public let shape: [Int]
        public let positions: [TensorIndex]
        /// The activation at each of `positions`.
        public let values: Floats
        public let mean: Double
    }

    public let crop: String
    public let layers: [Layer]
}

/// `yunet/raw.json`: YuNet's 12 head outputs for each input.
public struct YuNetRawOutputs: Decodable {
    public struct Case: Decodable {
        public let name: String
        public let inputPNG: String
        /// The part of `inputPNG` fed to the network; nil for the whole image.
        public let crop: PixelRect?
        /// [width, height].
        public let size: [Int]
        /// Keyed `<kind>_<stride>`, e.g. `cls_8`.
        public let outputs: [String: Output]

        public enum CodingKeys: String, CodingKey {
            case name, crop, size, outputs
            case inputPNG = "input_png"
        }
    }

    public struct Output: Decodable {
        /// Little-endian float32, relative to `yunet/`.
        public let file: String
    }

    public let cases: [Case]
}

/// `yunet/faces.json`: OpenCV FaceDetectorYN's faces on each photo.
public struct YuNetFaces: Decodable {
    public typealias Photo = FixturePhoto<Face>

    public struct Face: Decodable {
        public let box: FixtureBox
        public let landmarks: [FixturePoint]
        public let score: Double
    }

    public let scoreThreshold: Double
    public let photos: [Photo]

    public enum CodingKeys: String, CodingKey {
        case photos
        case scoreThreshold = "score_threshold"
    }
}

/// `yunet/align.json`: OpenCV's alignCrop and feature() for every face of some photos.
public struct YuNetAlignment: Decodable {
    public typealias Photo = FixturePhoto<Face>

    public struct Face: Decodable {
        public let box: FixtureBox
        public let landmarks: [FixturePoint]
        /// Stored only for the first faces of a photo.
        public let crop: String?
        /// OpenCV's raw 128-d feature().
        public let embedding: Floats
    }

    public let photos: [Photo]
}

// Value shapes shared by the fixtures.

/// Numbers read as Double and narrowed to Float, as the tests have always compared them.
public struct Floats: Decodable {
    public let values: [Float]

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([Double].self).map(Float.init)
    }
}

/// `[x, y]`.
public struct FixturePoint: Decodable {
    public let point: Point

    public init(from decoder: any Decoder) throws {
        let v: [Double] = try decodeArray(decoder, count: 2, "[x, y]")
        point = Point(Float(v[0]), Float(v[1]))
    }
}

/// `[x, y, w, h]` in pixels, fractional.
public struct FixtureBox: Decodable {
    public let box: Box

    public init(from decoder: any Decoder) throws {
        let v: [Double] = try decodeArray(decoder, count: 4, "[x, y, w, h]")
        box = Box(x: Float(v[0]), y: Float(v[1]), width: Float(v[2]), height: Float(v[3]))
    }
}

/// `[x, y, w, h]` in whole pixels.
public struct PixelRect: Decodable {
    public let x: Int, y: Int, width: Int, height: Int

    public init(from decoder: any Decoder) throws {
        let v: [Int] = try decodeArray(decoder, count: 4, "[x, y, w, h]")
        (x, y, width, height) = (v[0], v[1], v[2], v[3])
    }
}

/// `[c, y, x]` into a CHW tensor.
public struct TensorIndex: Decodable {
    public let c: Int, y: Int, x: Int

    public init(from decoder: any Decoder) throws {
        let v: [Int] = try decodeArray(decoder, count: 3, "[c, y, x]")
        (c, y, x) = (v[0], v[1], v[2])
    }
}

/// A fixed-length array, so a wrong length is a decoding error rather than an index out of range.
private func decodeArray<T: Decodable>(_ decoder: any Decoder, count: Int, _ layout: String) throws -> [T] {
    let container = try decoder.singleValueContainer()
    let v = try container.decode([T].self)
    guard v.count == count else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(layout), found \(v.count) values")
    }
    return v
}

/// A photo of a fixture and what the reference found on each of its faces.
public struct FixturePhoto<Face: Decodable>: Decodable {
    public let file: String
    public let faces: [Face]
}
