#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
"""Counts the distinct colours of a PNG (8-bit, non-interlaced, as Chromium
writes screenshots), with the standard library only.

    png_colours.py FILE MIN    exits 1 when FILE has fewer than MIN colours
"""
import struct
import sys
import zlib


def pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    for y in range(height):
        row_start = y * (stride + 1)
        kind = raw[row_start]
        row = bytearray(raw[row_start + 1:row_start + 1 + stride])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                row[i] = (row[i] + predictor) & 0xFF
        yield from (bytes(row[i:i + channels]) for i in range(0, stride, channels))
        previous = row


def main():
    path, minimum = sys.argv[1], int(sys.argv[2])
    colours = set()
    for pixel in pixels(path):
        colours.add(pixel)
        if len(colours) >= minimum:
            print(f"{path}: at least {minimum} colours")
            return 0
    print(f"{path}: only {len(colours)} colour(s)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
