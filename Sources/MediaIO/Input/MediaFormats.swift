/// The FFmpeg demuxers glimt-pure lets near a user's file: self-contained media and image
/// containers only. Left out on purpose: playlists and manifests (hls, dash, concat, ffmetadata,
/// webm_dash_manifest, imf), image2's file-pattern sequences, and network or session
/// descriptions (sdp, rtsp, rtp): each of those reads other files or URLs named inside it.
struct MediaFormats: Sendable {
    /// Demuxer names as FFmpeg spells them; a demuxer with several names ("mov,mp4,m4a,...")
    /// is allowed when any of them is listed.
    let names: [String]
    /// What a file in one of them is to the person, for the line refusing one that is not.
    var what = "a photo or video"

    static let video = MediaFormats(names: [
        "mov", "matroska", "avi", "mpegts", "mpeg", "flv", "asf", "ogg", "dv",
    ])

    /// Single pictures. HEIF/AVIF come through "mov" where the FFmpeg is new enough to read them.
    static let images = MediaFormats(names: [
        "jpeg_pipe", "png_pipe", "webp_pipe", "bmp_pipe", "tiff_pipe", "gif", "apng",
    ])

    /// Audio-only containers: music under a film, and an audio file named as such among videos.
    static let audio = MediaFormats(names: ["mp3", "aac", "wav", "flac", "aiff", "caf", "wv"])

    static let all = MediaFormats(names: video.names + images.names + audio.names)

    /// Music under a film: sound files, and videos' soundtracks.
    static let sound = MediaFormats(names: audio.names + video.names, what: "a sound file")

    func adding(_ more: [String]) -> MediaFormats { MediaFormats(names: names + more, what: what) }

    /// FFmpeg's own `format_whitelist` syntax.
    var whitelist: String { names.joined(separator: ",") }

    /// Whether a demuxer called `demuxerName` (possibly "a,b,c") is allowed.
    func allows(_ demuxerName: String) -> Bool {
        demuxerName.split(separator: ",").contains { names.contains(String($0)) }
    }

    /// Whether `demuxerName` is one of the still-image demuxers.
    static func isImage(_ demuxerName: String) -> Bool { images.allows(demuxerName) }
}
