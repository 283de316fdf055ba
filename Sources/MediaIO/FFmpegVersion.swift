import CFFmpeg

/// The FFmpeg this process runs with, as FFmpeg names itself (e.g. "5.1.9-0+deb12u1").
public enum FFmpegVersion {
    public static var text: String { String(cString: av_version_info()) }
}
