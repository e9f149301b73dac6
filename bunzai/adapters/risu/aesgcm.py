"""AES-256-GCM, as `.risup` presets need it: a fixed public key, a zero IV, a 16-byte tag.

RisuAI wraps a preset with AES-GCM (key SHA-256("risupreset"), twelve zero bytes as IV).
That is obfuscation, not secrecy; still, a preset of a few megabytes must open in well
under a second, which a block cipher written in Python cannot do (a 5 MB preset took 27 s).
So the cipher is the `cryptography` package's, imported only here, when a RisuAI preset is
read or written.
"""

from __future__ import annotations

from bunzai.errors import BunzaiError

TAG_BYTES = 16


def encrypt(key: bytes, iv: bytes, plaintext: bytes) -> bytes:
    """Ciphertext with the 16-byte tag appended (as WebCrypto gives it)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    return AESGCM(key).encrypt(iv, plaintext, None)


def decrypt(key: bytes, iv: bytes, sealed: bytes, what: str) -> bytes:
    """The plaintext of `sealed` (ciphertext + tag); corrupt_file when the tag does not match."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if len(sealed) < TAG_BYTES:
        raise BunzaiError("corrupt_file", f"{what}: the encrypted part is shorter than its tag", "export it again")
    try:
        return AESGCM(key).decrypt(iv, sealed, None)
    except InvalidTag:
        raise BunzaiError(
            "corrupt_file",
            f"{what}: the encrypted part does not authenticate (damaged, or not written by RisuAI)",
            "export it again from RisuAI",
        ) from None
