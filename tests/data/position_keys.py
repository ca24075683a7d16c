#!/usr/bin/env python3
"""Writes tests/data/position_keys.csv: position keys computed independently of the Rust code.

The key format is documented in src/shogi/zobrist/mod.rs. This script implements that
documentation on its own: SplitMix64 from the documented seed fills the three tables in the
documented order, SFEN and USI moves are read here, and a key is the XOR of the documented
parts. The Rust test `keys::pinned_vectors` compares every row with the Rust implementation.

usage: python3 tests/data/position_keys.py > tests/data/position_keys.csv
"""
import sys

MASK = (1 << 64) - 1
STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
KINDS = ["P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R"]
HAND_KINDS = ["P", "L", "N", "S", "G", "B", "R"]


def splitmix64(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


gen = splitmix64(0x6B69667564657831)
BOARD = [[next(gen) for _ in range(28)] for _ in range(81)]
HAND = [[[next(gen) for _ in range(18)] for _ in range(7)] for _ in range(2)]
WHITE = next(gen)


def square(file, rank):
    return (file - 1) * 9 + (rank - 1)


def parse_sfen(text):
    board_text, turn, hands = text.split()[:3]
    board = {}
    for r, row in enumerate(board_text.split("/")):
        file, promoted = 9, False
        for c in row:
            if c.isdigit():
                file -= int(c)
            elif c == "+":
                promoted = True
            else:
                color = 0 if c.isupper() else 1
                board[square(file, r + 1)] = (color, ("+" if promoted else "") + c.upper())
                promoted = False
                file -= 1
    hand = [dict.fromkeys(HAND_KINDS, 0), dict.fromkeys(HAND_KINDS, 0)]
    if hands != "-":
        count = ""
        for c in hands:
            if c.isdigit():
                count += c
            else:
                hand[0 if c.isupper() else 1][c.upper()] += int(count or "1")
                count = ""
    return board, hand, 0 if turn == "b" else 1


def play(pos, usi):
    board, hand, turn = pos
    to = square(int(usi[-3 if usi.endswith("+") else -2]), ord(usi.rstrip("+")[-1]) - 96)
    if usi[1] == "*":
        hand[turn][usi[0]] -= 1
        board[to] = (turn, usi[0])
    else:
        frm = square(int(usi[0]), ord(usi[1]) - 96)
        color, kind = board.pop(frm)
        if to in board:
            hand[turn][board[to][1].lstrip("+")] += 1
        board[to] = (color, "+" + kind if usi.endswith("+") else kind)
    return board, hand, 1 - turn


def key(pos):
    board, hand, turn = pos
    k = 0
    for sq, (color, kind) in board.items():
        k ^= BOARD[sq][color * 14 + KINDS.index(kind)]
    for color in (0, 1):
        for i, kind in enumerate(HAND_KINDS):
            for n in range(hand[color][kind]):
                k ^= HAND[color][i][n]
    return k ^ (WHITE if turn else 0)


def position(text):
    words = text.split()
    if words[0] == "startpos":
        pos, rest = parse_sfen(STARTPOS), words[1:]
    else:
        pos, rest = parse_sfen(" ".join(words[:4])), words[4:]
    for usi in rest[1:] if rest else []:
        pos = play(pos, usi)
    return pos


POSITIONS = """
startpos
startpos moves 7g7f
startpos moves 7g7f 3c3d
startpos moves 7g7f 3c3d 2g2f
startpos moves 2g2f 3c3d 7g7f
startpos moves 7g7f 3c3d 8h2b+ 3a2b
startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e
startpos moves 2h3h 8b7b 3h2h 7b8b
4k4/9/9/9/9/9/9/9/4K4 b - 1
4k4/9/9/9/9/9/9/9/4K4 w - 1
4k4/9/9/9/9/9/9/9/4K4 b P 1
4k4/9/9/9/9/9/9/9/4K4 b 2P 1
4k4/9/9/9/9/9/9/9/4K4 b p 1
4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1
4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1
4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1
3+R1+B3/9/4k4/9/9/9/9/9/4K4 b - 1
3+r1+b3/9/4k4/9/9/9/9/9/4K4 b - 1
+P+L+N+S4k/9/9/9/9/9/9/9/4K4 b - 1
k8/2S6/1G7/9/9/9/9/9/4K4 b P 1
9/9/9/9/9/9/9/9/9 b 2G 1
ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62
l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1
R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1
"""


def main():
    rows = [line.strip() for line in POSITIONS.strip().splitlines()]
    with open(__file__.replace(".py", "_sfens.txt"), encoding="utf-8") as f:
        rows += [line.strip() for line in f if line.strip()]
    out = sys.stdout
    out.write("position,key\n")
    for text in rows:
        out.write(f"{text},{key(position(text)):016x}\n")


if __name__ == "__main__":
    main()
