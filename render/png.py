"""A PNG writer for our paletted boards that deflates in parallel strips.

Deflate is most of the cost of a render (the drawing itself is a few ms). PNG holds one
zlib stream, but a stream may be made of independently compressed pieces: each strip is
compressed with no history from the one before and ends on a full flush (byte-aligned,
not final), the last one finishes the stream. zlib releases the GIL, so the strips run on
several cores, as pigz does. The output is an ordinary PNG; the bytes depend only on the
image (the strips are fixed), never on thread timing.
"""

from __future__ import annotations

import struct
import zlib
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

LEVEL = 6
STRIPS = 2  # fixed, so the bytes never depend on the machine
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=STRIPS, thread_name_prefix="png")
    return _POOL


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _deflate(piece: bytes, last: bool) -> bytes:
    c = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9)
    return c.compress(piece) + c.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


def encode_p(image: Image.Image) -> bytes:
    """PNG bytes of a "P" image (8-bit palette, no filter, as Pillow would for "P")."""
    if image.mode != "P":
        raise ValueError("encode_p writes paletted images only")
    w, h = image.size
    # every scanline gets its filter byte (0, none): paste the pixels one column right
    lines = Image.new("L", (w + 1, h), 0)
    lines.paste(Image.frombytes("L", (w, h), image.tobytes()), (1, 0))
    raw = lines.tobytes()
    step = -(-h // STRIPS) * (w + 1)
    pieces = [raw[i:i + step] for i in range(0, len(raw), step)]
    flags = [k == len(pieces) - 1 for k in range(len(pieces))]
    body = b"".join(_pool().map(_deflate, pieces, flags))
    idat = b"\x78\x9c" + body + struct.pack(">I", zlib.adler32(raw) & 0xFFFFFFFF)
    palette = image.getpalette() or []
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", bytes(palette[:768]))
            + _chunk(b"IDAT", idat)
            + _chunk(b"IEND", b""))
