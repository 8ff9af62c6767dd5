"""QR codes of the join URL: inline SVG for pages, text for the terminal."""

import io
import re

import qrcode
import qrcode.image.svg


def svg(url):
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    text = image.to_string(encoding="unicode")
    # Drop the fixed size so CSS can make it as large as the screen allows.
    text = re.sub(r"^<\?xml[^>]*>\s*", "", text)
    return re.sub(r' width="[^"]*" height="[^"]*"', ' class="qr-code" role="img" aria-label="QR code"', text, count=1)


def terminal(url):
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
