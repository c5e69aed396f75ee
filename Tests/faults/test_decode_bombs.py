"""Receipt photos that are small files but huge images, sent to a running `tally serve`: a photo
saved so that it must be decoded whole (an interlaced PNG, a progressive JPEG) is refused (413)
when that would take more memory than one decode may, one just within it is taken, and two sent
at once are decoded one after the other. Either way the server's peak memory (VmHWM) rises by at
most 300 MB. Before, a 1.5 MB PNG of 14000 x 14000 pixels took the server from 251 MB to 1.92 GB.
"""

import struct
import sys
import threading
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

pyvips = pytest.importorskip("pyvips")

PASSWORD = "correct horse battery staple"
# What one upload may add to the server's peak memory.
BUDGET = 300 << 20
RECEIPTS = Path(__file__).resolve().parents[1] / "TallyServerTests" / "Fixtures" / "Receipts"


def interlaced_png(width, height, bit_depth, colour_type, channels):
    """A one-colour Adam7-interlaced PNG: its seven passes, each row filter 0, compressed as it is made."""
    sample = bit_depth // 8 * channels
    packer = zlib.compressobj(9)
    data = bytearray()
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    for x0, y0, dx, dy in passes:
        columns, rows = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if columns <= 0 or rows <= 0:
            continue
        row = b"\x00" + b"\x7f" * (columns * sample)
        for _ in range(rows):
            data += packer.compress(row)
    data += packer.flush()

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", bytes(data)) + chunk(b"IEND", b"")


def progressive_jpeg(side):
    """A grey progressive JPEG `side` pixels square (libvips writes it)."""
    image = (pyvips.Image.black(side, side, bands=3) + 128).cast("uchar").copy(interpretation="srgb")
    return image.jpegsave_buffer(interlace=True, Q=50)


def peak(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def server_pid(base):
    port = base.rsplit(":", 1)[1]
    for status in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = status.read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in words and port.encode() in words:
            return int(status.parent.name)
    raise AssertionError("the server's process was not found")






def test_photos_read_whole_are_bounded(tmp_path):
    database = tmp_path / "tally.sqlite"
    ada, bob = tally_process.person(database, "ada"), tally_process.person(database, "bob")
    # Over what one decode may take: 8000 x 8000 16-bit RGBA interlaced (512 MB decoded) and a
    # progressive JPEG of 8000 x 8000 (384 MB of coefficients); within it, 8-bit RGB interlaced
    # at 8000 x 8000 (192 MB) and a progressive JPEG of 6000 x 6000 (216 MB).
    png_bomb = interlaced_png(8000, 8000, 16, 6, 4)
    jpeg_bomb = progressive_jpeg(8000)
    png_within = interlaced_png(8000, 8000, 8, 2, 3)
    jpeg_within = progressive_jpeg(6000)
    for photo in (png_bomb, jpeg_bomb, png_within, jpeg_within):
        assert len(photo) < 10 << 20
    with tally_process.serve(database, tmp_path / "serve.log", tally_process.environment()) as base:
        pid = server_pid(base)
        ada_receipt, bob_receipt = tally_process.receipt_path(base, ada), tally_process.receipt_path(base, bob)
        # libvips is loaded and has read one photo: what follows is the photos' own memory.
        status, _ = tally_process.send(base, ada, "PUT", ada_receipt, (RECEIPTS / "gps.jpg").read_bytes(), "image/jpeg")
        assert status == 200
        before = peak(pid)

        answers = {}

        def send(name, secret, path, photo, kind):
            answers[name] = tally_process.send(base, secret, "PUT", path, photo, kind)

        # Two bombs at once, from two people: refused, and decoded one at a time if at all.
        senders = [threading.Thread(target=send, args=("png", ada, ada_receipt, png_bomb, "image/png")),
                   threading.Thread(target=send, args=("jpeg", bob, bob_receipt, jpeg_bomb, "image/jpeg"))]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join()
        for name in ("png", "jpeg"):
            status, problem = answers[name]
            assert status == 413, (name, status, problem)
            assert "read whole" in problem["detail"], problem
        assert peak(pid) - before <= BUDGET, f"two refused bombs raised the peak by {(peak(pid) - before) >> 20} MB"

        for photo, kind in ((png_within, "image/png"), (jpeg_within, "image/jpeg")):
            status, entry = tally_process.send(base, ada, "PUT", ada_receipt, photo, kind)
            assert status == 200, entry
            assert entry["receipt"] in ("image/jpeg", "image/png")
        grown = peak(pid) - before
        assert grown <= BUDGET, f"photos within the limit raised the peak by {grown >> 20} MB"
        print(f"peak before {before >> 20} MB, after {peak(pid) >> 20} MB (+{grown >> 20} MB)")
