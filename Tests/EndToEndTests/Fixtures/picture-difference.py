#!/usr/bin/env python3
"""Compares two PNG pictures of the same window (Tests/EndToEndTests/ScreenshotTests.swift).

    python3 picture-difference.py BEFORE.png AFTER.png X0 X1

Prints one JSON object: each picture's "size" ([width, height]), "opaque" (the share of AFTER's pixels that are
opaque in its top 40 rows: the header bar) and, when the sizes agree, "box" ([x0, y0, x1, y1], the bounding box of
the pixels that differ between columns X0 and X1, or null when none do). Python 3 standard library only: 8-bit RGB or RGBA
PNGs, not interlaced, as GTK saves them.
"""
import json
import struct
import sys
import zlib


def read(path):
    with open(path, "rb") as file:
        data = file.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + " is not a PNG"
    offset, compressed, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
        offset += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, "unsupported PNG: %r" % (header,)
    channels = 4 if color == 6 else 3
    stride = width * channels
    raw = zlib.decompress(compressed)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                a, b, c = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[x] = (line[x] + (left if a <= b and a <= c else up if b <= c else corner)) & 0xFF
        rows.append([tuple(line[x:x + channels][:3]) + ((line[x + 3],) if channels == 4 else (255,))
                     for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def main():
    before, after = read(sys.argv[1]), read(sys.argv[2])
    x0, x1 = int(sys.argv[3]), int(sys.argv[4])
    top = [pixel for row in after[2][:40] for pixel in row]
    result = {"size": [[before[0], before[1]], [after[0], after[1]]],
              "opaque": sum(1 for pixel in top if pixel[3] == 255) / max(1, len(top))}
    if before[:2] == after[:2]:
        width, height = before[:2]
        changed = [(x, y) for y in range(height) for x in range(max(0, x0), min(width, x1))
                   if before[2][y][x] != after[2][y][x]]
        result["box"] = ([min(x for x, _ in changed), min(y for _, y in changed),
                          max(x for x, _ in changed), max(y for _, y in changed)] if changed else None)
    print(json.dumps(result))


main()
