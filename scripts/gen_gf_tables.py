#!/usr/bin/env python3
"""Writes libdecode/core/gf_tables.h: the constant tables of CRC-64 and FEC
(digest §5.1, §5.2). Run again only if a definition below changes:
  python3 scripts/gen_gf_tables.py libdecode/core/gf_tables.h"""
import sys

def gfmul(a, b, poly):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= poly
    return r

# ---- CRC-64: polynomials over GF(2^8)/0x12B, reduced mod g(x) ----
CRC_POLY = 0x12B
G = [0x69, 0x4D, 0x41, 0x33, 0xD5, 0xFE, 0x68, 0xD5]  # g[0..7]; g[8] = 1
CRC_MSG = 242
CRC_CHAIN = 80     # three chains: bytes 0..79, 80..159, 160..241

def check_generator():
    g, a = [1], 1
    for _ in range(8):
        a = gfmul(a, 2, CRC_POLY)
        ng = [0] * (len(g) + 1)
        for k, c in enumerate(g):
            ng[k + 1] ^= c
            ng[k] ^= gfmul(c, a, CRC_POLY)
        g = ng
    assert g == G + [1], "generator coefficients do not match (x+a)...(x+a^8)"

def mulx(r):
    """(r * x) mod g, r as 8 coefficients (r[k] of x^k)."""
    top = r[7]
    out = [0] + r[:7]
    return [out[k] ^ gfmul(top, G[k], CRC_POLY) for k in range(8)]

def mulxn(r, n):
    for _ in range(n):
        r = mulx(r)
    return r

def pack(r):
    return sum(c << (8 * k) for k, c in enumerate(r))

def coef(k, v):
    r = [0] * 8
    r[k] = v
    return r

check_generator()
# crc_slice[j][v] = v * x^(8+j) mod g: coefficient j after eight byte steps
crc_slice = [[pack(mulxn(coef(j, v), 8)) for v in range(256)] for j in range(8)]
# crc_join[c][n][v]: nibble n (bits 4n+3..4n) of chain c's remainder equal
# to v, times x^(242 - 80(c+1)) mod g: moved past the bytes after chain c
crc_join = [[[pack(mulxn(coef(n // 2, v << (4 * (n % 2))), CRC_MSG - CRC_CHAIN * (c + 1)))
              for v in range(16)] for n in range(16)] for c in range(2)]

# ---- FEC: GF(2^8)/0x11D, alpha = 2 ----
FEC_POLY = 0x11D
FEC_CHAIN = 14     # three chains of 14 steps of 2 symbols per group

def mul2(v):
    return gfmul(v, 2, FEC_POLY)

exp = [0] * 255
log = [0] * 256
x = 1
for i in range(255):
    exp[i] = x
    log[x] = i
    x = mul2(x)
# fec_join[c][b] = a^(b + 2*14*(2-c)): bit b of a lane of chain c, moved past
# the steps of the later chains
fec_join = [[exp[(b + 2 * FEC_CHAIN * (2 - c)) % 255] for b in range(8)] for c in range(2)]

# ---- GF2P8AFFINEQB matrices (crc64.c / fec.c SIMD paths) ----
def affine(c, poly):
    """Matrix operand of GF2P8AFFINEQB that multiplies each byte by c:
    output bit i = parity(matrix byte 7-i AND x), so byte 7-i is row i."""
    m = 0
    for i in range(8):
        row = sum(1 << k for k in range(8) if gfmul(c, 1 << k, poly) >> i & 1)
        m |= row << (8 * (7 - i))
    return m

def crc_pow(j, n):
    """(a^j)^n in GF(2^8)/0x12B"""
    b = 1
    for _ in range(j * n):
        b = gfmul(b, 2, CRC_POLY)
    return b

# Syndrome Horner: 8-byte steps (b^8), four chains of 8 steps joined by b^64,
# then folds of the 8 byte lanes by b^4, b^2, b^1; b = a^j for root j = 1..8.
CRC_AFF_POWERS = [8, 64, 4, 2, 1]
crc_aff = [[affine(crc_pow(j, n), CRC_POLY) for j in range(1, 9)] for n in CRC_AFF_POWERS]
# AVX-512 path: eight chains of four words, word k of a chain times
# b^(8(3-k)) (crc_aff_word) and chain c (words 4c..4c+3) joined to the last
# by b^(32(7-c))
crc_aff_word = [[affine(crc_pow(j, 8 * (3 - k)), CRC_POLY) for j in range(1, 9)] for k in range(3)]
crc_aff_join8 = [[affine(crc_pow(j, 32 * (7 - c)), CRC_POLY) for j in range(1, 9)] for c in range(7)]

def gf_inv(a, poly):
    r = 1
    for _ in range(254):
        r = gfmul(r, a, poly)
    return r

def solve_vandermonde():
    """W with r[k] = sum_j W[k][j] * S_j for the remainder r(x) of degree < 8
    whose values at a^1..a^8 are S_1..S_8 (Gauss-Jordan over GF(2^8))."""
    n = 8
    a = [[crc_pow(j + 1, k) for k in range(n)] + [1 if c == j else 0 for c in range(n)] for j in range(n)]
    for col in range(n):
        piv = next(r for r in range(col, n) if a[r][col])
        a[col], a[piv] = a[piv], a[col]
        inv = gf_inv(a[col][col], CRC_POLY)
        a[col] = [gfmul(v, inv, CRC_POLY) for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v ^ gfmul(f, w, CRC_POLY) for v, w in zip(a[r], a[col])]
    return [row[n:] for row in a]   # inverse of V[j][k] = (a^(j+1))^k

W = solve_vandermonde()
# crc_from_syn[j][v]: the remainder (byte k = coefficient of x^k) for syndrome S_(j+1) = v
crc_from_syn = [[sum(gfmul(W[k][j], v, CRC_POLY) << (8 * k) for k in range(8)) for v in range(256)]
                for j in range(8)]

# FEC: 24-byte blocks (8 symbols of each group) per step: a^8; chains joined by a^40
FEC_AFF_STEP = affine(exp[8], FEC_POLY)
FEC_AFF_JOIN = affine(exp[40], FEC_POLY)
# the fold of a group's eight symbols: a^4, a^2, a^1, then a^-3 = a^252
FEC_AFF_FOLDS = [("FOLD4", 4), ("FOLD2", 2), ("FOLD1", 1), ("INV3", 252)]
# AVX-512 path: 48-byte blocks (16 symbols per group), block k times
# a^(69-16k), then folds by a^8, a^4, a^2, a^1 leave a^(84-j) on symbol j
fec_aff_block = [affine(exp[(69 - 16 * k) % 255], FEC_POLY) for k in range(6)]

def dims(t):
    return "[%d]" % len(t) + (dims(t[0]) if isinstance(t[0], list) else "")

def rows(t, fmt, per, ind):
    if not isinstance(t[0], list):
        return [ind + " ".join(fmt % v + "," for v in t[i:i + per]) for i in range(0, len(t), per)]
    out = []
    for sub in t:
        out += [ind + "{"] + rows(sub, fmt, per, ind + "  ") + [ind + "},"]
    return out

def table(ctype, name, t, fmt, per):
    return ["static const %s %s%s = {" % (ctype, name, dims(t))] + rows(t, fmt, per, "  ") + ["};"]

out = ["/* Generated by scripts/gen_gf_tables.py; do not edit. */",
       "#ifndef UAL_GF_TABLES_H", "#define UAL_GF_TABLES_H", "#include <stdint.h>", "",
       "/* CRC-64 over GF(2^8)/0x12B, remainders mod g(x), byte k = coefficient of x^k. */",
       "#define UAL_CRC_CHAIN %d  /* bytes in chains 0 and 1; chain 2 has the rest */" % CRC_CHAIN,
       "/* crc_slice[j][v] = v * x^(8+j) mod g */"]
out += table("uint64_t", "crc_slice", crc_slice, "0x%016xULL", 4)
out += ["/* crc_join[c][n][v] = (v << 4n as a remainder) * x^(242 - %d(c+1)) mod g */" % CRC_CHAIN]
out += table("uint64_t", "crc_join", crc_join, "0x%016xULL", 4)
out += ["", "/* FEC over GF(2^8)/0x11D, a = 2. */",
        "#define UAL_FEC_CHAIN %d  /* 6-byte steps per chain */" % FEC_CHAIN,
        "/* fec_join[c][b] = a^(b + 2*%d*(2-c)) */" % FEC_CHAIN]
out += table("uint8_t", "fec_join", fec_join, "0x%02x", 8)
out += ["/* fec_log[v] = log_a(v) (fec_log[0] unused) */"]
out += table("uint8_t", "fec_log", log, "%3d", 16)
out += ["", "/* GF2P8AFFINEQB matrices (byte 7-i = row of output bit i) */",
        "/* crc_aff[p][j]: times (a^(j+1))^n, n = %s for p = 0..4 */" % ", ".join(map(str, CRC_AFF_POWERS)),
        "enum { CRC_AFF_STEP, CRC_AFF_JOIN, CRC_AFF_FOLD4, CRC_AFF_FOLD2, CRC_AFF_FOLD1 };"]
out += table("uint64_t", "crc_aff", crc_aff, "0x%016xULL", 4)
out += ["/* crc_aff_word[k][j]: times (a^(j+1))^(8(3-k)), word k of a chain of four */"]
out += table("uint64_t", "crc_aff_word", crc_aff_word, "0x%016xULL", 4)
out += ["/* crc_aff_join8[c][j]: times (a^(j+1))^(32(7-c)), chain c of eight joined to the last */"]
out += table("uint64_t", "crc_aff_join8", crc_aff_join8, "0x%016xULL", 4)
out += ["/* crc_from_syn[j][v]: CRC remainder whose value at a^(j+1) is v and 0 at the other roots */"]
out += table("uint64_t", "crc_from_syn", crc_from_syn, "0x%016xULL", 4)
out += ["#define FEC_AFF_STEP 0x%016xULL /* times a^8 */" % FEC_AFF_STEP,
        "#define FEC_AFF_JOIN 0x%016xULL /* times a^40 */" % FEC_AFF_JOIN]
out += ["#define FEC_AFF_%s 0x%016xULL /* times a^%d */" % (n, affine(exp[e], FEC_POLY), e) for n, e in FEC_AFF_FOLDS]
out += ["/* fec_aff_block[k]: times a^(69-16k), 48-byte block k */"]
out += table("uint64_t", "fec_aff_block", fec_aff_block, "0x%016xULL", 3)
out += ["", "#endif"]
open(sys.argv[1] if len(sys.argv) > 1 else "libdecode/core/gf_tables.h", "w").write("\n".join(out) + "\n")
