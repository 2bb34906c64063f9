"""The night kernel's dice: a xoshiro256** generator per night, codes 0-215.

A roll is a code ``36 (d1 - 1) + 6 (d2 - 1) + (d3 - 1)``
(:func:`bunco.analysis.dice_codes.dice_to_codes`). Night ``i`` of a run seeded with
``seed`` draws from a xoshiro256** generator seeded with ``night_seeds(seed)[i]``, each
32-bit half of a 64-bit output giving one code by Lemire's multiply-shift with
rejection, so that every code is exactly as likely; or the codes come from a given
stream (nights one after another). :func:`fill_codes` gives Python the very codes the
kernel draws, so the engine can play the same nights.
"""

from __future__ import annotations

import numpy as np

from bunco.analysis.kernel.layout import G_OVER, G_POS, G_STREAM, njit

M32 = np.uint64(0xFFFFFFFF)


@njit()
def _splitmix(x: np.uint64) -> np.uint64:  # pragma: no cover
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def night_seeds(seed: np.uint64, start: int, count: int) -> np.ndarray:  # pragma: no cover
    """The seeds of nights ``start .. start + count - 1`` of a run seeded with ``seed``."""
    out = np.empty(count, dtype=np.uint64)
    base = _splitmix(seed)
    for i in range(count):
        out[i] = _splitmix(base ^ _splitmix(np.uint64(start + i)))
    return out


@njit(_nrt=False)
def _seed(rs: np.ndarray, seed: np.uint64) -> None:  # pragma: no cover
    x = seed
    for j in range(4):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        rs[j] = z ^ (z >> np.uint64(31))
    rs[4] = 0
    rs[5] = 0


@njit(_nrt=False, inline="always")
def _xoshiro_code(
    s0: np.uint64,
    s1: np.uint64,
    s2: np.uint64,
    s3: np.uint64,
    cache: np.uint64,
    have: bool,
) -> tuple[
    np.int64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, bool
]:  # pragma: no cover
    """The next code 0-215 of a xoshiro256** state held in local variables, and the new
    state (``cache`` the last 64-bit output, ``have`` whether its high half is unused).
    Exactly uniform: each 32-bit half of a 64-bit output, Lemire's multiply-shift with
    rejection of the 184 biased low values."""
    c = np.int64(0)
    while True:
        if have:
            have = False
            h = cache >> np.uint64(32)
        else:
            x = s1 * np.uint64(5)
            z = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
            u = s1 << np.uint64(17)
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= u
            s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
            cache = z
            have = True
            h = z & M32
        m = h * np.uint64(216)
        if (m & M32) >= np.uint64(184):
            c = np.int64(m >> np.uint64(32))
            break
    return c, s0, s1, s2, s3, cache, have


@njit(_nrt=False, inline="always")
def _code(rs: np.ndarray) -> np.int64:  # pragma: no cover
    """One code 0-215 from the generator state ``rs`` (see :func:`_xoshiro_code`)."""
    c, s0, s1, s2, s3, cache, have = _xoshiro_code(rs[0], rs[1], rs[2], rs[3], rs[4], rs[5] != 0)
    rs[0], rs[1], rs[2], rs[3], rs[4] = s0, s1, s2, s3, cache
    rs[5] = 1 if have else 0
    return c


@njit(cache=True, _nrt=False)
def fill_codes(rs: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """Fill ``out`` with the next codes of the generator state ``rs`` (see :func:`_seed`)."""
    for i in range(out.shape[0]):
        out[i] = _code(rs)


@njit(cache=True)
def seed_state(seed: np.uint64) -> np.ndarray:  # pragma: no cover
    """A generator state for one night's seed."""
    rs = np.zeros(6, dtype=np.uint64)
    _seed(rs, seed)
    return rs


@njit(_nrt=False, inline="always")
def _draw(rs: np.ndarray, codes: np.ndarray, g: np.ndarray) -> np.int64:  # pragma: no cover
    """The next code: from the stream ``codes`` or from the generator."""
    p = g[G_POS]
    g[G_POS] = p + 1
    if g[G_STREAM] != 0:
        if p >= codes.shape[0]:
            g[G_OVER] = 1
            return np.int64(0)
        return np.int64(codes[p])
    return _code(rs)


@njit(_nrt=False, inline="always")
def _next_code(
    stream: bool,
    rs: np.ndarray,
    codes: np.ndarray,
    g: np.ndarray,
    s0: np.uint64,
    s1: np.uint64,
    s2: np.uint64,
    s3: np.uint64,
    cache: np.uint64,
    have: bool,
) -> tuple[
    np.int64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, bool
]:  # pragma: no cover
    """The next code and the generator state: from the stream ``codes`` (:func:`_draw`:
    ``g[G_OVER]`` is set when it runs out), or from the state in local variables."""
    c = np.int64(0)
    if stream:
        c = _draw(rs, codes, g)
    else:
        c, s0, s1, s2, s3, cache, have = _xoshiro_code(s0, s1, s2, s3, cache, have)
    return c, s0, s1, s2, s3, cache, have
