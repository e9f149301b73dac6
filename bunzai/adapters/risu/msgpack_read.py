"""A bounded MessagePack reader, for the two msgpack layers of a `.risup` preset.

RisuAI writes presets with msgpackr, which emits plain MessagePack for JSON-like values
(maps, arrays, strings, numbers, booleans, nil, and bin for byte arrays), and JavaScript's
`undefined` (a preset key RisuAI's database never set, such as `localStopStrings`) as its
extension 0 (`d4 00 00`). There is no JSON undefined, so it reads as JavaScript then sees it:
a key of the top-level object is null (RisuAI's import spreads the preset over its template,
so the key still overrides the template's default, and RisuAI reads it with `??`); a key of
a nested object is left out (JavaScript reads an undefined property as a missing one); an
array item is null. Nesting and sizes are bounded by bunzai.limits; anything else
malformed is corrupt_file.
"""

from __future__ import annotations

import struct
from typing import Any

from bunzai import limits
from bunzai.errors import BunzaiError
from bunzai.jsondoc.reading import mend_lone_surrogates

_UNDEFINED = object()  # msgpackr's extension 0: JavaScript's undefined
_FIXEXT1 = 0xD4


def unpack(data: bytes, what: str) -> Any:
    """The one value `data` holds; corrupt_file when damaged or followed by stray bytes."""
    reader = _Reader(data, what)
    value = reader.value(0)
    value = None if value is _UNDEFINED else value
    if reader.at != len(data):
        raise reader.fail("stray bytes after the value")
    if reader.surrogates:
        value = mend_lone_surrogates(value)
    return value


class _Reader:
    def __init__(self, data: bytes, what: str) -> None:
        self.data = data
        self.at = 0
        self.what = what
        self.surrogates = False  # a string held half an emoji, as JavaScript's encoders write it

    def fail(self, why: str) -> BunzaiError:
        return BunzaiError(
            "corrupt_file",
            f"{self.what}: the MessagePack data is damaged ({why} at byte {self.at})",
            "export the file again from RisuAI",
        )

    def take(self, count: int) -> bytes:
        if count < 0 or self.at + count > len(self.data):
            raise self.fail("it ends early")
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def number(self, fmt: str) -> Any:
        return struct.unpack(">" + fmt, self.take(struct.calcsize(fmt)))[0]

    def value(self, depth: int) -> Any:
        if depth > limits.JSON_MAX_DEPTH:
            raise BunzaiError(
                "too_deep",
                f"{self.what}: MessagePack nested deeper than {limits.JSON_MAX_DEPTH}",
                "the file is not a preset RisuAI writes",
            )
        byte = self.take(1)[0]
        if byte <= 0x7F:
            return byte
        if byte >= 0xE0:
            return byte - 0x100
        if 0x80 <= byte <= 0x8F:
            return self.mapping(byte & 0x0F, depth)
        if 0x90 <= byte <= 0x9F:
            return self.array(byte & 0x0F, depth)
        if 0xA0 <= byte <= 0xBF:
            return self.text(byte & 0x1F)
        fixed = {0xC0: None, 0xC2: False, 0xC3: True}
        if byte in fixed:
            return fixed[byte]
        sized = {0xC4: "B", 0xC5: "H", 0xC6: "I"}
        if byte in sized:
            return self.take(self.number(sized[byte]))
        numbers = {
            0xCA: "f",
            0xCB: "d",
            0xCC: "B",
            0xCD: "H",
            0xCE: "I",
            0xCF: "Q",
            0xD0: "b",
            0xD1: "h",
            0xD2: "i",
            0xD3: "q",
        }
        if byte in numbers:
            return self.number(numbers[byte])
        texts = {0xD9: "B", 0xDA: "H", 0xDB: "I"}
        if byte in texts:
            return self.text(self.number(texts[byte]))
        if byte in (0xDC, 0xDD):
            return self.array(self.number("H" if byte == 0xDC else "I"), depth)
        if byte in (0xDE, 0xDF):
            return self.mapping(self.number("H" if byte == 0xDE else "I"), depth)
        if byte == _FIXEXT1 and self.data[self.at : self.at + 1] == b"\x00":
            self.take(2)  # the type and its one data byte, which msgpackr ignores
            return _UNDEFINED
        raise self.fail(f"type byte 0x{byte:02x} (an extension type) is not one RisuAI's presets use")

    def text(self, count: int) -> str:
        raw = self.take(count)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        try:
            text = raw.decode("utf-8", "surrogatepass")  # a lone surrogate, encoded as if UTF-8 allowed it
        except UnicodeDecodeError:
            raise self.fail("a string that is not UTF-8") from None
        self.surrogates = True
        return text

    def array(self, count: int, depth: int) -> list:
        if count > len(self.data) - self.at:  # every item takes at least a byte
            raise self.fail("an array longer than the data")
        items = [self.value(depth + 1) for _ in range(count)]
        return [None if item is _UNDEFINED else item for item in items]

    def mapping(self, count: int, depth: int) -> dict:
        if 2 * count > len(self.data) - self.at:
            raise self.fail("a map longer than the data")
        result: dict = {}
        for _ in range(count):
            key = self.value(depth + 1)
            if isinstance(key, (bytes, list, dict)):
                raise self.fail("a map key that is not a string or number")
            if key is _UNDEFINED:
                raise self.fail("a map key that is undefined")
            value = self.value(depth + 1)
            if value is _UNDEFINED:
                if depth > 0:  # a nested key JavaScript reads as missing
                    continue
                value = None
            result[key if isinstance(key, str) else str(key)] = value
        return result
