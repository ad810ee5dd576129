#!/usr/bin/python3
"""The project's SSIM and PSNR (octo-ssim) against scikit-image's on real
decoded frames: the shipped clip decoded at 640x360, and the same frames
after a real low-bitrate VP8 encode and after a blur.  SSIM must agree
within 0.001 (structural_similarity with the Wang et al. 2004 settings) and
PSNR within 0.01 dB (peak_signal_noise_ratio).

    test-ssim-skimage.py OCTO_SSIM CLIP"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from skimage.metrics import peak_signal_noise_ratio, structural_similarity

WIDTH, HEIGHT, FRAMES = 640, 360, 6
RAW = f"video/x-raw,format=I420,width={WIDTH},height={HEIGHT}"


def decode(clip, tmp):
    """The clip's first FRAMES frames, as the source and degraded twice."""
    paths = {k: os.path.join(tmp, k + ".i420") for k in ("source", "vp8", "blur")}
    subprocess.run([
        "gst-launch-1.0", "-q", "filesrc", f"location={clip}", "!", "decodebin",
        "!", "videoconvert", "!", "videoscale", "!", RAW + ",pixel-aspect-ratio=1/1",
        "!", "identity", f"eos-after={FRAMES}", "!", "tee", "name=t",
        "t.", "!", "queue", "!", "filesink", f"location={paths['source']}",
        "t.", "!", "queue", "!", "vp8enc", "target-bitrate=150000", "deadline=1",
        "cpu-used=8", "lag-in-frames=0", "!", "vp8dec", "!", RAW, "!",
        "filesink", f"location={paths['vp8']}",
        "t.", "!", "queue", "!", "videoconvert", "!", "gaussianblur", "sigma=1.2",
        "!", "videoconvert", "!", RAW, "!", "filesink", f"location={paths['blur']}",
    ], check=True)
    return paths


def luma_frames(path):
    frame = WIDTH * HEIGHT * 3 // 2
    data = np.fromfile(path, dtype=np.uint8)
    assert data.size % frame == 0 and data.size >= FRAMES * frame, \
        f"{path}: {data.size} bytes"
    return [data[i * frame:i * frame + WIDTH * HEIGHT].reshape(HEIGHT, WIDTH)
            for i in range(data.size // frame)]


def octo_ssim(tool, ref, dist):
    out = subprocess.run([tool, f"--width={WIDTH}", f"--height={HEIGHT}",
                          "--format=i420", ref, dist], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    assert out[0] == "frame,ssim,psnr_db", out[0]
    return [(float(r.split(",")[1]), float(r.split(",")[2])) for r in out[1:] if r]


def main():
    tool, clip = sys.argv[1:3]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        paths = decode(clip, tmp)
        source = luma_frames(paths["source"])
        for kind in ("source", "vp8", "blur"):
            ours = octo_ssim(tool, paths["source"], paths[kind])
            frames = luma_frames(paths[kind])
            assert len(ours) == len(frames) == len(source), (kind, len(ours))
            for i, (a, b) in enumerate(zip(source, frames)):
                ssim = structural_similarity(a, b, gaussian_weights=True, sigma=1.5,
                                             use_sample_covariance=False,
                                             data_range=255)
                with np.errstate(divide="ignore"):
                    psnr = peak_signal_noise_ratio(a, b, data_range=255)
                print(f"{kind} frame {i}: SSIM {ours[i][0]:.6f} (skimage {ssim:.6f}), "
                      f"PSNR {ours[i][1]:.3f} dB (skimage {psnr:.3f})")
                assert abs(ours[i][0] - ssim) <= 0.001, (kind, i)
                assert (np.isinf(psnr) and np.isinf(ours[i][1])) \
                    or abs(ours[i][1] - psnr) <= 0.01, (kind, i)
                worst = max(worst, abs(ours[i][0] - ssim))
            if kind != "source":
                # the degradation is real: the test would see a wrong window
                assert max(s for s, _ in ours) < 0.99, kind
    print(f"largest SSIM difference: {worst:.2e}")


if __name__ == "__main__":
    main()
