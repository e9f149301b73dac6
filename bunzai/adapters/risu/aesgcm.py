"""AES-256-GCM, only as `.risup` presets need it: a fixed public key, a zero IV, a 16-byte tag.

RisuAI wraps a preset with AES-GCM (key SHA-256("risupreset"), twelve zero bytes as IV).
That is obfuscation, not secrecy, and bunzai opens it without a cryptography dependency:
the AES block cipher (FIPS-197) in counter mode plus GHASH for the tag, checked before
any plaintext is returned. Small inputs only (presets); speed is not a goal.
"""

from __future__ import annotations

import hmac

from bunzai.errors import BunzaiError

TAG_BYTES = 16


def _xtime(value: int) -> int:
    value <<= 1
    return (value ^ 0x11B) if value & 0x100 else value


def _sbox() -> list[int]:
    box = [0] * 256
    p = q = 1
    while True:  # walk the multiplicative group with generator 3; q tracks the inverse of p
        p = p ^ _xtime(p)
        q ^= q << 1
        q ^= q << 2
        q ^= q << 4
        q &= 0xFF
        if q & 0x80:
            q ^= 0x09
        x = q ^ _rotl(q, 1) ^ _rotl(q, 2) ^ _rotl(q, 3) ^ _rotl(q, 4)
        box[p] = x ^ 0x63
        if p == 1:
            break
    box[0] = 0x63
    return box


def _rotl(value: int, shift: int) -> int:
    return ((value << shift) | (value >> (8 - shift))) & 0xFF


_SBOX = _sbox()


def _expand(key: bytes) -> list[list[int]]:
    words = [list(key[i:i + 4]) for i in range(0, 32, 4)]
    rcon = 1
    for i in range(8, 60):
        word = list(words[i - 1])
        if i % 8 == 0:
            word = [_SBOX[b] for b in word[1:] + word[:1]]
            word[0] ^= rcon
            rcon = _xtime(rcon)
        elif i % 8 == 4:
            word = [_SBOX[b] for b in word]
        words.append([a ^ b for a, b in zip(words[i - 8], word)])
    return [sum(words[r * 4:r * 4 + 4], []) for r in range(15)]


def _encrypt_block(rounds: list[list[int]], block: bytes) -> bytes:
    state = [b ^ k for b, k in zip(block, rounds[0])]
    for number in range(1, 15):
        state = [_SBOX[b] for b in state]
        state = [state[(i + 4 * (i % 4)) % 16] for i in range(16)]  # ShiftRows, column-major
        if number != 14:
            mixed = []
            for c in range(4):
                a = state[4 * c:4 * c + 4]
                t = a[0] ^ a[1] ^ a[2] ^ a[3]
                mixed += [a[i] ^ t ^ _xtime(a[i] ^ a[(i + 1) % 4]) & 0xFF for i in range(4)]
            state = mixed
        state = [b ^ k for b, k in zip(state, rounds[number])]
    return bytes(state)


def _gmul(x: int, y: int) -> int:
    result = 0
    reduce = 0xE1 << 120
    for bit in range(127, -1, -1):
        if (y >> bit) & 1:
            result ^= x
        x = (x >> 1) ^ reduce if x & 1 else x >> 1
    return result


def _ghash(subkey: int, data: bytes) -> int:
    total = 0
    for at in range(0, len(data), 16):
        block = data[at:at + 16].ljust(16, b"\x00")
        total = _gmul(total ^ int.from_bytes(block, "big"), subkey)
    return total


def _ctr(rounds: list[list[int]], counter0: int, data: bytes) -> bytes:
    out = bytearray()
    for index, at in enumerate(range(0, len(data), 16)):
        block = ((counter0 & ~0xFFFFFFFF) | ((counter0 + index) & 0xFFFFFFFF)).to_bytes(16, "big")
        stream = _encrypt_block(rounds, block)
        out += bytes(a ^ b for a, b in zip(data[at:at + 16], stream))
    return bytes(out)


def _tag(rounds: list[list[int]], j0: int, ciphertext: bytes) -> bytes:
    subkey = int.from_bytes(_encrypt_block(rounds, bytes(16)), "big")
    lengths = (0).to_bytes(8, "big") + (len(ciphertext) * 8).to_bytes(8, "big")
    padded = ciphertext + b"\x00" * (-len(ciphertext) % 16)
    digest = _ghash(subkey, padded + lengths)
    mask = int.from_bytes(_encrypt_block(rounds, j0.to_bytes(16, "big")), "big")
    return (digest ^ mask).to_bytes(16, "big")


def _j0(iv: bytes) -> int:
    if len(iv) != 12:
        raise ValueError("bunzai's AES-GCM takes a 96-bit IV only")
    return int.from_bytes(iv + b"\x00\x00\x00\x01", "big")


def encrypt(key: bytes, iv: bytes, plaintext: bytes) -> bytes:
    """Ciphertext with the 16-byte tag appended (as WebCrypto gives it)."""
    rounds, j0 = _expand(key), _j0(iv)
    ciphertext = _ctr(rounds, j0 + 1, plaintext)
    return ciphertext + _tag(rounds, j0, ciphertext)


def decrypt(key: bytes, iv: bytes, sealed: bytes, what: str) -> bytes:
    """The plaintext of `sealed` (ciphertext + tag); corrupt_file when the tag does not match."""
    if len(sealed) < TAG_BYTES:
        raise BunzaiError("corrupt_file", f"{what}: the encrypted part is shorter than its tag", "export it again")
    rounds, j0 = _expand(key), _j0(iv)
    ciphertext, tag = sealed[:-TAG_BYTES], sealed[-TAG_BYTES:]
    if not hmac.compare_digest(_tag(rounds, j0, ciphertext), tag):
        raise BunzaiError("corrupt_file", f"{what}: the encrypted part does not authenticate (damaged, or not "
                          "written by RisuAI)", "export it again from RisuAI")
    return _ctr(rounds, j0 + 1, ciphertext)
