#!/usr/bin/env python3
"""Checks a digest email the way a strict mail client would, then renders it.

    check_digest_mail.py MESSAGE.eml WORKDIR [CHROMIUM]

Parses the message with Python's email package in policy.strict mode (any defect raises),
checks every cid: reference in the HTML part resolves to an inline part of the enclosing
multipart/related, writes the HTML with each cid: replaced by a data: URI, renders it with
headless Chromium, decodes the screenshot (PNG, by hand: zlib and the PNG filters) and counts
the pixels of each chart line colour. Prints one JSON object.
"""
import base64, email, json, re, struct, subprocess, sys, zlib
from email import policy

LINE_COLOURS = {"light": (0, 114, 178), "dark": (86, 180, 233)}


def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, width = 8, [], 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {depth} {colour} {interlace}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + left) & 255
            elif kind == 2: line[i] = (line[i] + up) & 255
            elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    path, workdir = sys.argv[1], sys.argv[2]
    chromium = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"
    result = {"parse_error": None}
    try:
        with open(path, "rb") as handle:
            message = email.message_from_binary_file(handle, policy=policy.strict)
        result["content_type"] = message.get_content_type()
        result["structure"] = [part.get_content_type() for part in message.walk()]
        html_part = message.get_body(preferencelist=("html",))
        text_part = message.get_body(preferencelist=("plain",))
        html = html_part.get_content()
        result["text"] = text_part.get_content()
        inline = {}
        for part in message.walk():
            cid = part.get("Content-ID")
            if cid:
                inline[str(cid).strip().strip("<>")] = (part.get_content_type(), part.get_payload(decode=True))
        references = re.findall(r'src="cid:([^"]+)"', html)
        result["references"] = len(references)
        result["unresolved"] = [ref for ref in references if ref not in inline]
        result["external"] = re.findall(r'(?:src|href)="(?:https?:)?//[^"]*"', html)
        result["scripts"] = html.lower().count("<script")
        result["bytes"] = len(open(path, "rb").read())
        for ref in set(references) & set(inline):
            kind, payload = inline[ref]
            html = html.replace(f"cid:{ref}", f"data:{kind};base64,{base64.b64encode(payload).decode()}")
        page = f"{workdir}/digest.html"
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(html)
        shot = f"{workdir}/digest.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={workdir}/chromium", f"--screenshot={shot}", "--window-size=800,6000",
                        "file://" + page], check=True, capture_output=True, timeout=120)
        with open(shot, "rb") as handle:
            width, height, channels, rows = decode_png(handle.read())
        counts = {name: 0 for name in LINE_COLOURS}
        for line in rows:
            for x in range(width):
                pixel = tuple(line[x * channels:x * channels + 3])
                for name, colour in LINE_COLOURS.items():
                    if all(abs(pixel[i] - colour[i]) < 12 for i in range(3)):
                        counts[name] += 1
        result["screenshot"] = {"width": width, "height": height, "line_pixels": counts}
    except Exception as error:  # reported to the test, which fails naming it
        result["parse_error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(result))


main()
