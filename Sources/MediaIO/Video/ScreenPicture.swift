import Imaging

/// A video's pictures as an ordinary (SDR, 8-bit) screen shows them: HLG and PQ tone-mapped,
/// everything else rounded to 8 bits. The film and the contact sheets show frames this way, and
/// the analysis samples (`SampledFrames`) are judged this way.
public struct ScreenPicture: Sendable {
    let toneMap: ToneMap?

    public init(_ info: VideoInfo) {
        toneMap = info.colour.hdrTransfer.map { ToneMap(transfer: $0) }
    }

    /// The depth to decode at: HDR needs its full-depth samples for tone mapping.
    public var depth: FrameDepth { toneMap == nil ? .eightBit : .source }

    public func image(_ picture: VideoPicture) -> RGBImage {
        if let toneMap, case .rgb16(let hdr) = picture { return toneMap.apply(hdr) }
        return picture.rgb8
    }
}
