#!/usr/bin/env python3
"""Rebuild tests/data/corpus/expected.tsv, the independent expectations for
kifudex's corpus test.

For every game of every file under the corpus root (default
/work/shared/corpus) one row is written:

    path  game  plies  final_sfen  winner  termination  status  decided_by  note

How a row is decided
--------------------
Three sources of truth are combined; none of them is kifudex.

* cshogi (pip install cshogi==1.1.0). Its KIF/KI2/CSA readers are used with
  light pre-processing done here (variations cut off, BOD diagrams turned into
  a start SFEN, "同銀" spaced, KI2 lines split one move per line, trailing
  "#..." remarks cut). JKF and USI/SFEN lines are read by this script and
  replayed on a cshogi Board. Every cshogi call runs in a forked child, so a
  crash in its C++ code is reported instead of killing the run.
* rsshogi 1.7.3 (feature "records"): the small Rust program in
  rsshogi_oracle/ prints one JSON object per game. It is copied to
  /tmp/kifudex-rsshogi-oracle, built and run with cargo (--rsshogi auto|run),
  or its saved output is read (--rsshogi FILE.jsonl). A full rebuild needs it:
  with --rsshogi off most games have a single oracle and stay undecided.
* jkf-expected: shogi-kifu-converter ships, beside each .kif/.kifu/.ki2/.ki2u/
  .csa test input, the expected JKF conversion (same stem, .json). That JKF is
  replayed here and used as a third vote for its sibling files.

When the oracles that could read a game agree on the plies and the final
position, their answer is taken. Every other game is listed in HAND below,
with the values decided by reading the file (see hand_decisions.md); the
script checks that each HAND entry still matches the oracle it names, and
stops with an error if an undecided disagreement appears.

Termination and winner are derived from the text of the record (terminal
move words, "まで…" summary lines, CSA "%" lines, JKF "special", USI tokens)
and the side to move after the last legal move; they are cross-checked
against what rsshogi reports. Then the moves decide where they can
(settle_by_the_moves): a final position that is checkmate, or that occurs a
fourth time (千日手, perpetual check), gives the result whatever the text says.

Policy for illegal moves (see hand_decisions.md):
* the last recorded move is illegal and the record marks a foul (反則…,
  %ILLEGAL_MOVE, %±ILLEGAL_ACTION, or a comment saying 反則): the illegal move
  is the ending: plies = legal moves before it, termination illegal_move,
  winner the side that did not play it, status ok;
* otherwise the record stops early: status stop:<N>:<reason> where N is the
  number of the move that cannot be read or played, plies = N-1, final_sfen
  the position before move N; termination/winner come from the text only
  where the text states them.

usage: build_expected.py [--corpus DIR] [--out FILE] [--rsshogi auto|run|off|FILE]
                         [--dump-oracles FILE]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import cshogi
from cshogi import CSA, KI2, KIF

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = Path("/work/shared/corpus")
COLUMNS = ["path", "game", "plies", "final_sfen", "winner", "termination", "status",
           "decided_by", "note"]

# --------------------------------------------------------------------------
# bytes -> text

def decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", "replace"), "utf-8-bom"
    for enc in ("utf-8", "cp932", "euc-jp"):
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    return data.decode("cp932", "replace"), "cp932-lossy"


def lines_of(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


FORMAT_BY_EXT = {
    ".kif": "KIF", ".kifu": "KIF", ".ki2": "KI2", ".ki2u": "KI2", ".csa": "CSA",
    ".jkf": "JKF", ".json": "JKF", ".usi": "USI", ".sfen": "USI", ".usen": "USEN",
    ".psn": "PSN",
}

# --------------------------------------------------------------------------
# positions

HIRATE = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -"
_BLACK_HALF = "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -"
HANDICAPS = {  # KIF 手合割 name -> start SFEN without move number
    "平手": HIRATE,
    "香落ち": "lnsgkgsn1/1r5b1/" + _BLACK_HALF,
    "右香落ち": "1nsgkgsnl/1r5b1/" + _BLACK_HALF,
    "角落ち": "lnsgkgsnl/1r7/" + _BLACK_HALF,
    "飛車落ち": "lnsgkgsnl/7b1/" + _BLACK_HALF,
    "飛香落ち": "lnsgkgsn1/7b1/" + _BLACK_HALF,
    "二枚落ち": "lnsgkgsnl/9/" + _BLACK_HALF,
    "三枚落ち": "lnsgkgsn1/9/" + _BLACK_HALF,
    "四枚落ち": "1nsgkgsn1/9/" + _BLACK_HALF,
    "五枚落ち": "2sgkgsn1/9/" + _BLACK_HALF,
    "左五枚落ち": "1nsgkgs2/9/" + _BLACK_HALF,
    "六枚落ち": "2sgkgs2/9/" + _BLACK_HALF,
    "左七枚落ち": "2sgkg3/9/" + _BLACK_HALF,
    "右七枚落ち": "3gkgs2/9/" + _BLACK_HALF,
    "八枚落ち": "3gkg3/9/" + _BLACK_HALF,
    "十枚落ち": "4k4/9/" + _BLACK_HALF,
}
JKF_PRESETS = {
    "HIRATE": "平手", "KY": "香落ち", "KY_R": "右香落ち", "KA": "角落ち", "HI": "飛車落ち",
    "HIKY": "飛香落ち", "2": "二枚落ち", "3": "三枚落ち", "4": "四枚落ち", "5": "五枚落ち",
    "5_L": "左五枚落ち", "6": "六枚落ち", "7_L": "左七枚落ち", "7_R": "右七枚落ち",
    "8": "八枚落ち", "10": "十枚落ち",
}


def sfen3(sfen: str) -> str:
    """SFEN without the move-number field."""
    return " ".join(sfen.split()[:3])


def new_board(sfen: str) -> cshogi.Board:
    b = cshogi.Board()
    b.set_sfen(sfen if len(sfen.split()) >= 4 else sfen + " 1")
    return b


def is_mate(sfen: str) -> bool:
    b = new_board(sfen)
    return b.is_check() and not any(True for _ in b.legal_moves)


def side_to_move(sfen: str) -> str:
    return sfen.split()[1]


# --------------------------------------------------------------------------
# BOD diagrams (KIF/KI2 start positions)

BOD_PIECE = {"歩": "p", "香": "l", "桂": "n", "銀": "s", "金": "g", "角": "b", "飛": "r",
             "玉": "k", "王": "k", "と": "+p", "杏": "+l", "圭": "+n", "全": "+s",
             "馬": "+b", "龍": "+r", "竜": "+r", "成香": "+l", "成桂": "+n", "成銀": "+s"}
KANJI_DIGIT = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
HAND_ORDER = "RBGSNLP"
HAND_LINE = re.compile(r"^(先手|下手|後手|上手)の持駒[：:](.*)$")
BOD_ROW = re.compile(r"^\|(.*)\|")


def kanji_number(s: str) -> int:
    s = s.strip()
    if not s:
        return 1
    if s.isdigit():
        return int(s)
    if s.startswith("十"):
        return 10 + (KANJI_DIGIT.get(s[1:], 0) if len(s) > 1 else 0)
    if len(s) == 1:
        return KANJI_DIGIT[s]
    raise ValueError(s)


def parse_hand(value: str) -> dict[str, int]:
    value = value.strip().replace("\u3000", " ")
    out: dict[str, int] = {}
    if value in ("", "なし"):
        return out
    for item in value.split():
        piece = BOD_PIECE[item[0]]
        out[piece.upper()] = out.get(piece.upper(), 0) + kanji_number(item[1:])
    return out


def hand_sfen(black: dict[str, int], white: dict[str, int]) -> str:
    s = ""
    for side, hand in (("b", black), ("w", white)):
        for k in HAND_ORDER:
            n = hand.get(k, 0)
            if n:
                s += (str(n) if n > 1 else "") + (k if side == "b" else k.lower())
    return s or "-"


def bod_to_sfen(lines: list[str]) -> tuple[str | None, str, set[int]]:
    """Returns (sfen3 or None, why, indexes of the lines that belong to it)."""
    rows, used = [], set()
    hands = {"b": {}, "w": {}}
    turn = None
    for i, line in enumerate(lines):
        s = line.strip()
        m = BOD_ROW.match(s)
        if m:
            rows.append(m.group(1))
            used.add(i)
            continue
        if re.match(r"^[９9][\s　]+[８8][\s　]+[７7]", s) or re.match(r"^\+-+\+$", s):
            used.add(i)
            continue
        hm = HAND_LINE.match(s)
        if hm:
            used.add(i)
            side = "b" if hm.group(1) in ("先手", "下手") else "w"
            hands[side] = parse_hand(hm.group(2))
            continue
        if s in ("後手番", "上手番"):
            turn = "w"
            used.add(i)
        elif s in ("先手番", "下手番"):
            turn = "b"
            used.add(i)
    if not rows:
        return None, "no BOD", used
    if len(rows) != 9:
        return None, f"partial BOD ({len(rows)} ranks)", used
    out_rows = []
    for r in rows:
        cells = [r[j:j + 2] for j in range(0, len(r), 2)]
        if len(cells) != 9:
            return None, f"partial BOD ({len(cells)} files)", used
        out, empty = "", 0
        for c in cells:
            if c[1] == "・":
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            pc = BOD_PIECE[c[1]]
            out += pc if c[0] == "v" else pc.upper()
        if empty:
            out += str(empty)
        out_rows.append(out)
    why = "BOD" if turn else "BOD without side-to-move line (black assumed)"
    return f"{'/'.join(out_rows)} {turn or 'b'} {hand_sfen(hands['b'], hands['w'])}", why, used


# --------------------------------------------------------------------------
# Text facts: what the record itself says (main line only)

KIF_TERMINAL_WORDS = [
    "投了", "詰み", "中断", "千日手", "持将棋", "切れ負け", "反則勝ち", "反則負け", "入玉勝ち",
    "封じ手", "不詰", "Time-up", "不戦勝", "不戦敗", "詰",
]
KIF_MOVE_LINE = re.compile(r"^\s*([0-9]+)\s+(.*)$")
KIF_FOUL_BY_SIDE = re.compile(r"^(先手|後手|下手|上手)\s*反則負け")
MADE = re.compile(r"^まで、?([0-9]+)手")


def strip_kif_remark(line: str) -> str:
    """Cuts a trailing '#...' remark (kif-parser's handmade dialect)."""
    if line.lstrip().startswith(("#", "*")):
        return line
    return line.split("#", 1)[0]


def kif_facts(text: str) -> dict:
    moves, terminal, summary, foul_comment = [], None, None, False
    for line in lines_of(text):
        s = strip_kif_remark(line).strip()
        if s.startswith("変化"):
            break
        if s.startswith("まで"):
            summary = summary or s
            continue
        if s.startswith("*") and "反則" in s:
            foul_comment = True
        m = KIF_MOVE_LINE.match(s)
        if not m or terminal:
            continue
        body = m.group(2).strip().lstrip("▲△☗☖")
        word = next((w for w in KIF_TERMINAL_WORDS if body.startswith(w)), None)
        fm = KIF_FOUL_BY_SIDE.match(body)
        if fm:
            terminal = ("反則負け", fm.group(1))
        elif word:
            terminal = (word, None)
        else:
            moves.append(body)
    return {"n_moves": len(moves), "terminal": terminal, "summary": summary,
            "foul_comment": foul_comment}


KI2_MARKS = "▲△▼▽☗☖"


def ki2_facts(text: str) -> dict:
    n, summary, foul_comment = 0, None, False
    for line in lines_of(text):
        s = line.strip()
        if s.startswith("変化"):
            break
        if s.startswith("まで"):
            summary = summary or s
            continue
        if s.startswith("*"):
            foul_comment |= "反則" in s
            continue
        if s[:1] in KI2_MARKS:
            n += sum(1 for ch in s if ch in KI2_MARKS)
    return {"n_moves": n, "terminal": None, "summary": summary, "foul_comment": foul_comment}


CSA_MOVE = re.compile(r"^[+-]\d{4}[A-Z]{2}")


def csa_split_games(text: str) -> list[list[str]]:
    games, cur = [], []
    for line in lines_of(text):
        if line.strip() == "/":
            games.append(cur)
            cur = []
        else:
            cur.append(line)
    games.append(cur)
    return [g for g in games if any(l.strip() and not l.startswith("'") for l in g)]


def csa_facts(lines: list[str]) -> dict:
    n, terminal, foul_comment = 0, None, False
    for line in lines:
        if line.startswith("'"):
            foul_comment |= "反則" in line
            continue
        for tok in line.split(","):
            tok = tok.strip()
            if CSA_MOVE.match(tok):
                if terminal is None:
                    n += 1
            elif tok.startswith("%") and terminal is None:
                terminal = (tok, None)
    return {"n_moves": n, "terminal": terminal, "summary": None, "foul_comment": foul_comment}


# --------------------------------------------------------------------------
# Termination and winner from the text

OPP = {"b": "w", "w": "b"}
SIDE_OF = {"先手": "b", "下手": "b", "後手": "w", "上手": "w"}

# word -> (termination, who wins relative to the side to move at the end)
#   "opp": the side not to move wins; "stm": the side to move wins; "d": draw; "-": none
ENDING_WORDS = {
    "投了": ("resign", "opp"), "%TORYO": ("resign", "opp"), "TORYO": ("resign", "opp"),
    "resign": ("resign", "opp"),
    "詰み": ("checkmate", "opp"), "詰": ("checkmate", "opp"), "%TSUMI": ("checkmate", "opp"),
    "TSUMI": ("checkmate", "opp"),
    "中断": ("interrupted", "-"), "%CHUDAN": ("interrupted", "-"), "CHUDAN": ("interrupted", "-"),
    "千日手": ("repetition", "d"), "%SENNICHITE": ("repetition", "d"),
    "SENNICHITE": ("repetition", "d"),
    # The word does not name the side that gave the checks: only the moves tell.
    "%OUTE_SENNICHITE": ("perpetual_check", "-"), "OUTE_SENNICHITE": ("perpetual_check", "-"),
    "持将棋": ("impasse", "d"), "%JISHOGI": ("impasse", "d"), "JISHOGI": ("impasse", "d"),
    "切れ負け": ("timeout", "opp"), "Time-up": ("timeout", "opp"), "%TIME_UP": ("timeout", "opp"),
    "TIME_UP": ("timeout", "opp"),
    "反則勝ち": ("illegal_move", "stm"), "反則負け": ("illegal_move", "opp"),
    "%ILLEGAL_MOVE": ("illegal_move", "opp"), "ILLEGAL_MOVE": ("illegal_move", "opp"),
    "%+ILLEGAL_ACTION": ("illegal_move", "w!"), "+ILLEGAL_ACTION": ("illegal_move", "w!"),
    "%-ILLEGAL_ACTION": ("illegal_move", "b!"), "-ILLEGAL_ACTION": ("illegal_move", "b!"),
    "入玉勝ち": ("entering_king", "stm"), "%KACHI": ("entering_king", "stm"),
    "KACHI": ("entering_king", "stm"),
    "封じ手": ("sealed", "-"), "不詰": ("no_mate", "-"), "%FUZUMI": ("no_mate", "-"),
    "FUZUMI": ("no_mate", "-"), "%MAX_MOVES": ("max_moves", "d"), "MAX_MOVES": ("max_moves", "d"),
    "%HIKIWAKE": ("unknown", "d"), "HIKIWAKE": ("unknown", "d"), "%ERROR": ("error", "-"),
    "不戦勝": ("forfeit", "stm"), "不戦敗": ("forfeit", "opp"),
}


def resolve_winner(rule: str, stm: str) -> str:
    return {"opp": OPP[stm], "stm": stm, "d": "d", "-": "-", "w!": "w", "b!": "b"}[rule]


def parse_summary(s: str, stm: str, mate: bool = False) -> tuple[str, str] | None:
    """まで… line -> (termination, winner)."""
    body = MADE.sub("", s).lstrip("で")
    m = re.match(r"^(時間切れにより)?(先手|後手|下手|上手)の(勝ち|反則勝ち|反則負け|入玉勝ち)", body)
    if m:
        side = SIDE_OF[m.group(2)]
        kind = m.group(3)
        if m.group(1):
            return "timeout", side
        if kind == "反則勝ち":
            return "illegal_move", side
        if kind == "反則負け":
            return "illegal_move", OPP[side]
        if kind == "入玉勝ち":
            return "entering_king", side
        # plain "X の勝ち": the loser is the side to move; it resigned, or was
        # mated when the final position is checkmate
        if side != OPP[stm]:
            return "unknown", side
        return ("checkmate" if mate else "resign"), side
    for word, res in (("千日手", ("repetition", "d")), ("持将棋", ("impasse", "d")),
                      ("中断", ("interrupted", "-")), ("封じ手", ("sealed", "-")),
                      ("不詰", ("no_mate", "-")), ("詰", ("checkmate", OPP[stm]))):
        if body.startswith(word):
            return res
    return None


def text_ending(facts: dict, stm: str, mate: bool = False) -> tuple[str, str, str]:
    """-> (termination, winner, remark) from the record's own words."""
    term = facts.get("terminal")
    summ = parse_summary(facts["summary"], stm, mate) if facts.get("summary") else None
    remark = ""
    if term:
        word, side = term
        if side:  # "先手 反則負け"
            res = ("illegal_move", OPP[SIDE_OF[side]])
        elif word in ENDING_WORDS:
            t, rule = ENDING_WORDS[word]
            res = (t, resolve_winner(rule, stm))
        else:
            res = ("unknown", "-")
        if summ and summ[1] != res[1]:
            remark = f"summary line {facts['summary']!r} disagrees ({summ})"
        return res[0], res[1], remark
    if summ:
        return summ[0], summ[1], ""
    return "none", "-", ""


# --------------------------------------------------------------------------
# cshogi oracle (runs in a child process per file)

def preprocess_kif_like(text: str, fmt: str, notes: list[str]) -> tuple[str, str | None]:
    lines = lines_of(text)
    for i, line in enumerate(lines):
        if line.strip().startswith("変化"):
            lines = lines[:i]
            notes.append("variations cut")
            break
    cut = [strip_kif_remark(l) for l in lines]
    if cut != lines:
        notes.append("'#' remarks cut")
        lines = cut
    start = None
    if any(BOD_ROW.match(l.strip()) for l in lines):
        sfen, why, used = bod_to_sfen(lines)
        if sfen is None:
            notes.append(f"BOD not converted: {why}")
        else:
            start = sfen
            notes.append("start from " + why)
            lines = [l for i, l in enumerate(lines)
                     if i not in used and not l.startswith("手合割")]
            lines.insert(0, "手合割：__bod__")
    if start is None:
        for l in lines:
            m = re.match(r"^手合割[：:](.*)$", l)
            if m:
                name = m.group(1).strip().rstrip("\u3000")
                if name in HANDICAPS:
                    start = HANDICAPS[name]
                else:
                    notes.append(f"unknown 手合割 {name!r}: hirate assumed")
                    start = HIRATE
                lines = [x for x in lines if not x.startswith("手合割")]
                lines.insert(0, "手合割：__bod__")
                break
    if fmt == "KIF":
        fixed = [re.sub(r"^(\s*\d+\s+)同(?=[歩香桂銀金角飛玉王と杏圭全馬龍竜成])", r"\1同　", l)
                 for l in lines]
        if fixed != lines:
            notes.append("'同X' spaced")
            lines = fixed
    else:
        marks = str.maketrans({"▽": "△", "▼": "▲", "☗": "▲", "☖": "△"})
        out = []
        for l in lines:
            s = l.strip()
            if s[:1] in KI2_MARKS:
                out += [x.strip() for x in re.findall(r"[▲△][^▲△]*", s.translate(marks))]
            else:
                out.append(l)
        lines = out
    return "\n".join(lines), start


def replay_cshogi(sfen: str, moves, push) -> dict:
    board = new_board(sfen)
    tracker = Repetitions(board)
    for i, mv in enumerate(moves):
        try:
            ok = push(board, mv)
        except Exception as e:  # noqa: BLE001 - a malformed token is a finding
            return {"plies": i, "final": sfen3(board.sfen()), "fail": f"move {i + 1}: {e}",
                    "fourfold": tracker.fourfold}
        if not ok:
            return {"plies": i, "final": sfen3(board.sfen()), "fail": f"move {i + 1} illegal",
                    "fourfold": tracker.fourfold}
        tracker.played(board)
    return {"plies": len(moves), "final": sfen3(board.sfen()), "fail": None,
            "fourfold": tracker.fourfold}


class Repetitions:
    """千日手 by the rules: the first position (board, hands, side to move: cshogi's SFEN
    without the move number) to occur a fourth time, and who, if anyone, gave check with
    every move since its first occurrence (that side loses; else a draw). A board with no
    king is a notation drill, not a game: nothing is counted there."""

    def __init__(self, board):
        self.kings = any(c in "kK" for c in board.sfen().split()[0])
        self.seen = {sfen3(board.sfen()): [0]}
        self.checks = []  # (mover, gave check) of each move
        self.fourfold = None  # {"ply": N, "winner": "d"|"b"|"w"} once found

    def played(self, board) -> None:
        mover = "w" if board.turn == cshogi.BLACK else "b"
        self.checks.append((mover, board.is_check()))
        if not self.kings or self.fourfold:
            return
        ply = len(self.checks)
        at = self.seen.setdefault(sfen3(board.sfen()), [])
        at.append(ply)
        if len(at) == 4:
            since = self.checks[at[0]:ply]
            checkers = [side for side in "bw"
                        if all(check for who, check in since if who == side)]
            winner = OPP[checkers[0]] if len(checkers) == 1 else "d"
            self.fourfold = {"ply": ply, "winner": winner}


def push_int(board, mv) -> bool:
    if not mv or not board.is_legal(mv):
        return False
    board.push(mv)
    return True


def push_usi(board, tok) -> bool:
    mv = board.move_from_usi(tok)
    return push_int(board, mv)


def usi_games(text: str) -> list[dict]:
    """USI/SFEN lists: one game per non-empty line."""
    games = []
    for line in lines_of(text):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("position "):
            s = s[len("position "):].strip()
        toks = s.split()
        if toks[0] == "startpos":
            sfen, rest = HIRATE, toks[1:]
        elif toks[0] == "sfen":
            sfen, rest = " ".join(toks[1:4]), toks[5:]
        else:
            sfen, rest = " ".join(toks[:3]), toks[4:]
        if rest[:1] == ["moves"]:
            rest = rest[1:]
        terminal = None
        moves = []
        for t in rest:
            if t in ("resign", "win", "draw"):
                terminal = (t, None)
                break
            moves.append(t)
        games.append({"start": sfen, "moves": moves, "terminal": terminal})
    return games


JKF_KIND = {"FU": "p", "KY": "l", "KE": "n", "GI": "s", "KI": "g", "KA": "b", "HI": "r",
            "OU": "k", "TO": "+p", "NY": "+l", "NK": "+n", "NG": "+s", "UM": "+b", "RY": "+r"}
JKF_HAND_KIND = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}


def jkf_start(initial) -> str:
    if not initial:
        return HIRATE
    preset = initial.get("preset", "HIRATE")
    if preset != "OTHER":
        return HANDICAPS[JKF_PRESETS[preset]]
    data = initial["data"]
    rows = []
    for y in range(9):
        out, empty = "", 0
        for x in range(8, -1, -1):
            cell = data["board"][x][y]
            if not cell or "kind" not in cell:
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            pc = JKF_KIND[cell["kind"]]
            out += pc.upper() if cell["color"] == 0 else pc
        if empty:
            out += str(empty)
        rows.append(out)
    hands = [{JKF_HAND_KIND[k]: v for k, v in h.items()} for h in data.get("hands", [{}, {}])]
    return f"{'/'.join(rows)} {'b' if data.get('color', 0) == 0 else 'w'} {hand_sfen(hands[0], hands[1])}"


def jkf_main_line(doc: dict) -> tuple[str, list[str], tuple | None, int]:
    """-> (start sfen3, USI moves, terminal, number of fork lists)."""
    start = jkf_start(doc.get("initial"))
    usi, terminal, forks = [], None, 0
    for entry in doc.get("moves", []):
        forks += len(entry.get("forks") or [])
        if entry.get("special"):
            terminal = (entry["special"], None)
            break
        mv = entry.get("move")
        if not mv:
            continue
        to = mv["to"]
        dst = f"{to['x']}{'abcdefghi'[to['y'] - 1]}"
        frm = mv.get("from")
        if frm:
            tok = f"{frm['x']}{'abcdefghi'[frm['y'] - 1]}{dst}" + ("+" if mv.get("promote") else "")
        else:
            tok = f"{JKF_HAND_KIND[mv['piece']]}*{dst}"
        usi.append(tok)
    return start, usi, terminal, forks


def cshogi_file(path: str) -> dict:
    data = Path(path).read_bytes()
    text, enc = decode(data)
    fmt = FORMAT_BY_EXT.get(Path(path).suffix.lower())
    notes: list[str] = []
    games = []
    if fmt in ("KIF", "KI2"):
        text2, start = preprocess_kif_like(text, fmt, notes)
        parser = KIF.Parser if fmt == "KIF" else KI2.Parser
        if start is not None:
            parser.HANDYCAP_SFENS["__bod__"] = start + " 1"
        try:
            p = parser.parse_str(text2)
        except Exception as e:  # noqa: BLE001
            return {"error": f"{type(e).__name__}: {str(e)[:100]}", "notes": notes}
        r = replay_cshogi(p.sfen, p.moves, push_int)
        r["start"] = sfen3(p.sfen)
        r["parsed_moves"] = len(p.moves)
        games.append(r)
    elif fmt == "CSA":
        try:
            parsed = CSA.Parser.parse_str(text)
        except Exception as e:  # noqa: BLE001
            return {"error": f"{type(e).__name__}: {str(e)[:100]}", "notes": notes}
        for p in parsed:
            r = replay_cshogi(p.sfen, p.moves, push_int)
            r["start"] = sfen3(p.sfen)
            r["parsed_moves"] = len(p.moves)
            games.append(r)
    elif fmt == "USI":
        for g in usi_games(text):
            r = replay_cshogi(g["start"], g["moves"], push_usi)
            r["start"] = g["start"]
            r["parsed_moves"] = len(g["moves"])
            games.append(r)
    elif fmt == "JKF":
        try:
            start, usi, _, _ = jkf_main_line(json.loads(text))
        except Exception as e:  # noqa: BLE001
            return {"error": f"JKF: {type(e).__name__}: {e}", "notes": notes}
        r = replay_cshogi(start, usi, push_usi)
        r["start"] = start
        r["parsed_moves"] = len(usi)
        notes.append("JKF read by this script, replayed on cshogi")
        games.append(r)
    else:
        return {"skip": True, "notes": notes}
    return {"games": games, "notes": notes, "encoding": enc}


def _child(path, conn):
    try:
        conn.send(cshogi_file(path))
    except Exception as e:  # noqa: BLE001
        conn.send({"error": f"{type(e).__name__}: {e}", "notes": []})
    finally:
        conn.close()


def cshogi_isolated(path: str, timeout: float = 60) -> dict:
    parent, child = mp.Pipe(duplex=False)
    proc = mp.get_context("fork").Process(target=_child, args=(path, child))
    proc.start()
    child.close()
    res = None
    if parent.poll(timeout):
        try:
            res = parent.recv()
        except EOFError:
            res = None
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if res is None:
        res = {"error": f"cshogi crashed (exit {proc.exitcode})", "notes": []}
    return res


# --------------------------------------------------------------------------
# rsshogi oracle

def rsshogi_results(mode: str, corpus: Path) -> dict | None:
    if mode == "off":
        return None
    if mode not in ("auto", "run"):
        src = Path(mode).read_text(encoding="utf-8")
    else:
        if not shutil.which("cargo"):
            if mode == "run":
                sys.exit("cargo not found")
            print("warning: cargo not found, rsshogi oracle skipped", file=sys.stderr)
            return None
        # build a copy outside the repository so that cargo writes no Cargo.lock here
        work = Path(os.environ.get("KIFUDEX_ORACLE_DIR", "/tmp/kifudex-rsshogi-oracle"))
        (work / "src").mkdir(parents=True, exist_ok=True)
        for name in ("Cargo.toml", "src/main.rs"):
            shutil.copyfile(HERE / "rsshogi_oracle" / name, work / name)
        cmd = ["cargo", "run", "--quiet", "--release", "--manifest-path",
               str(work / "Cargo.toml"), "--", str(corpus)]
        src = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    out: dict = {}
    for line in src.splitlines():
        if line.strip():
            d = json.loads(line)
            out.setdefault(d["path"], {})[d["game"]] = d
    return out


# --------------------------------------------------------------------------
# jkf-expected (shogi-kifu-converter ships the expected JKF beside its inputs)

def jkf_expected_for(path: Path) -> dict | None:
    if "shogi-kifu-converter" not in path.parts or path.suffix.lower() == ".json":
        return None
    sib = path.with_suffix(".json")
    if not sib.exists():
        return None
    doc = json.loads(sib.read_text(encoding="utf-8"))
    start, usi, terminal, _ = jkf_main_line(doc)
    r = replay_cshogi(start, usi, push_usi)
    r["start"] = start
    r["terminal"] = terminal
    r["source"] = str(sib.name)
    return r


# --------------------------------------------------------------------------
# Hand-check tools. They are not oracles: they replay move texts that neither
# oracle reads (Western/PSN, USEN) or that one oracle cannot read (some KI2),
# using cshogi only to list the legal moves. HAND entries name them in "check".

FILES = "123456789"
RANKS = "abcdefghi"


def board_map(sfen: str) -> dict[str, str]:
    """'7g' -> 'P' / '+p' ... from an SFEN board field."""
    out, rank = {}, 0
    for row in sfen.split()[0].split("/"):
        file, prom = 9, ""
        for ch in row:
            if ch.isdigit():
                file -= int(ch)
            elif ch == "+":
                prom = "+"
            else:
                out[f"{file}{RANKS[rank]}"] = prom + ch
                file -= 1
                prom = ""
        rank += 1
    return out


def legal_usi(board) -> list[tuple[str, str | None, str, bool, str]]:
    """-> [(usi, from or None, to, promotes, moving piece as uppercase '+X'/'X')]."""
    bm = board_map(board.sfen())
    out = []
    for m in board.legal_moves:
        u = cshogi.move_to_usi(m)
        if u[1] == "*":
            out.append((u, None, u[2:4], False, u[0]))
        else:
            out.append((u, u[:2], u[2:4], u.endswith("+"), bm[u[:2]].upper()))
    return out


def forward(color: str, frm: str, to: str) -> int:
    """>0 when the move goes towards the opponent, <0 backwards, 0 sideways."""
    d = RANKS.index(frm[1]) - RANKS.index(to[1])
    return d if color == "b" else -d


JP_PIECE = {"歩": "P", "香": "L", "桂": "N", "銀": "S", "金": "G", "角": "B", "飛": "R", "玉": "K",
            "王": "K", "と": "+P", "杏": "+L", "成香": "+L", "圭": "+N", "成桂": "+N", "全": "+S",
            "成銀": "+S", "馬": "+B", "龍": "+R", "竜": "+R"}
JP_MOVE = re.compile(
    r"^([１-９1-9][一二三四五六七八九1-9]|同[\s　]*)(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])"
    r"([右左直]?)([上引寄行入]?)(打|成|不成|生)?$")
WIDE = str.maketrans("１２３４５６７８９", "123456789")


def resolve_japanese(board, text: str, last_to: str | None) -> str:
    """One KI2-style move (side mark already removed) -> USI."""
    m = JP_MOVE.match(text.strip())
    if not m:
        raise ValueError(f"unreadable move {text!r}")
    dst, piece, rel, mv, act = m.groups()
    if dst.startswith("同"):
        to = last_to
    else:
        d = dst.translate(WIDE)
        to = d[0] + RANKS["一二三四五六七八九".index(d[1])] if d[1] in "一二三四五六七八九" \
            else d[0] + RANKS[int(d[1]) - 1]
    want = JP_PIECE[piece]
    color = side_to_move(board.sfen())
    cands = [c for c in legal_usi(board) if c[2] == to and c[4] == want]
    if act == "打":
        cands = [c for c in cands if c[1] is None]
    elif any(c[1] for c in cands):
        cands = [c for c in cands if c[1] is not None]
    if act == "成":
        cands = [c for c in cands if c[3]]
    else:
        cands = [c for c in cands if not c[3]]
    if mv in ("上", "行", "入"):
        cands = [c for c in cands if forward(color, c[1], to) > 0]
    elif mv == "引":
        cands = [c for c in cands if forward(color, c[1], to) < 0]
    elif mv == "寄":
        cands = [c for c in cands if forward(color, c[1], to) == 0]
    if rel == "直":
        cands = [c for c in cands if c[1][0] == to[0] and forward(color, c[1], to) == 1]
    elif rel in ("右", "左") and len(cands) > 1:
        files = [int(c[1][0]) for c in cands]
        # black's right is the low file, white's right the high file
        pick = min(files) if (rel == "右") == (color == "b") else max(files)
        cands = [c for c in cands if int(c[1][0]) == pick]
    if len(cands) != 1:
        raise ValueError(f"{text!r}: {len(cands)} candidates")
    return cands[0][0]


def replay_ki2_text(start: str, text: str) -> dict:
    """Replays the main line of a KI2 text with resolve_japanese."""
    board = new_board(start)
    plies, last_to = 0, None
    for line in lines_of(text):
        s = line.strip()
        if s.startswith("変化"):
            break
        if s[:1] not in KI2_MARKS:
            continue
        for tok in re.findall(f"[{KI2_MARKS}][^{KI2_MARKS}]*", s):
            try:
                u = resolve_japanese(board, tok[1:].strip(), last_to)
            except ValueError as e:
                return {"plies": plies, "final": sfen3(board.sfen()), "fail": str(e)}
            board.push_usi(u)
            last_to = u[2:4]
            plies += 1
    return {"plies": plies, "final": sfen3(board.sfen()), "fail": None}


WESTERN = re.compile(r"^(\+?)([PLNSGBRK])([1-9][a-i])?([-x'*@])([1-9][a-i])([+=]?)$")


def resolve_western(board, tok: str) -> str:
    """One Hodges-style move (P-7f, P7g-7f, Bx2b+, +R3hx4h, P'2e, P@8c, B*9e) -> USI."""
    m = WESTERN.match(tok)
    if not m:
        raise ValueError(f"unreadable move {tok!r}")
    prom, piece, frm, sep, to, suffix = m.groups()
    want = prom + piece
    cands = [c for c in legal_usi(board) if c[2] == to and c[4] == want]
    if sep in "'*@":
        cands = [c for c in cands if c[1] is None]
    else:
        cands = [c for c in cands if c[1] is not None and (frm is None or c[1] == frm)]
    cands = [c for c in cands if c[3] == (suffix == "+")]
    if len(cands) != 1:
        raise ValueError(f"{tok!r}: {len(cands)} candidates")
    if sep == "x" and to not in board_map(board.sfen()):
        raise ValueError(f"{tok!r}: capture mark but {to} is empty")
    return cands[0][0]


def psn_tokens(text: str) -> tuple[dict, list[str], str | None]:
    tags = dict(re.findall(r'^\[(\w+)\s+"(.*)"\]\s*$', text, flags=re.M))
    body = re.sub(r"^\[.*\]\s*$", "", text, flags=re.M)
    body = re.sub(r"\{[^}]*\}", " ", body)
    moves, result = [], None
    for t in body.split():
        if re.fullmatch(r"\d+\.", t) or re.fullmatch(r"\$\d+", t):
            continue
        if t in ("1-0", "0-1", "1/2-1/2", "*"):
            result = t
            continue
        moves.append(t)
    return tags, moves, result


def replay_psn(text: str) -> dict:
    tags, moves, result = psn_tokens(text)
    start = HIRATE
    if "SFEN" in tags:
        f = tags["SFEN"].split()
        start = " ".join(f + ["b", "-"][len(f) - 1:]) if len(f) < 3 else " ".join(f[:3])
    board = new_board(start)
    usi = []
    for i, tok in enumerate(moves):
        try:
            u = resolve_western(board, tok)
        except ValueError as e:
            return {"plies": i, "final": sfen3(board.sfen()), "fail": str(e), "usi": usi,
                    "tags": tags, "result": result}
        board.push_usi(u)
        usi.append(u)
    return {"plies": len(usi), "final": sfen3(board.sfen()), "fail": None, "usi": usi,
            "tags": tags, "result": result}


def usen_square(i: int) -> str:
    return f"{i % 9 + 1}{RANKS[i // 9]}"


def replay_usen(text: str) -> dict:
    """USEN (mogproject): '{state}~{offset}.{moves}[.{final}]'; state '' is the
    even start, else board with '_' for '/', then '.turn.hands'; moves are 3
    base-36 digits of (from*81+to)*2+promote, from >= 81 meaning a drop."""
    state, _, rest = text.strip().partition("~")
    start = HIRATE if not state else " ".join(
        [state.split(".")[0].replace("_", "/")] + state.split(".")[1:3])
    parts = rest.split("~")[0].split(".")
    mvs, final = parts[1], (parts[2] if len(parts) > 2 else "")
    board = new_board(start)
    for i in range(0, len(mvs), 3):
        x = int(mvs[i:i + 3], 36)
        a, b, c = x // 162, x // 2 % 81, x % 2
        if a >= 81:
            raise ValueError("drops not needed by the corpus")
        u = usen_square(a) + usen_square(b) + ("+" if c else "")
        mv = board.move_from_usi(u)
        if not mv or not board.is_legal(mv):
            return {"plies": i // 3, "final": sfen3(board.sfen()), "fail": f"{u} illegal"}
        board.push(mv)
    return {"plies": len(mvs) // 3, "final": sfen3(board.sfen()), "fail": None,
            "start": start, "final_action": final}




# --------------------------------------------------------------------------
# Hand decisions. Key: (path, game). Values override everything; "check" names
# the oracle whose plies/final position must still agree (None: no oracle could).
# Each entry is explained in hand_decisions.md.

HAND: dict[tuple[str, int], dict] = {}


def hand(path, plies, final, winner, termination, decided_by, note, check=(), status="ok",
         game=0):
    HAND[(path, game)] = dict(plies=plies, final_sfen=final, winner=winner,
                              termination=termination, status=status,
                              decided_by=decided_by, note=note, check=list(check))


# Western / PSN: no oracle reads it. Moves translated with resolve_western
# (every move must match exactly one legal move); Result tag gives the winner.
_PSN = "western-psn/"
hand(_PSN + "bare_short_hodges.psn", 4,
     "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/2P6/PP1PPPPPP/1BG4R1/LNS1KGSNL b -", "-", "none", "hand",
     "PSN, no oracle; short Hodges moves resolved by legality; no tags, no result", ["psn-resolver"])
hand(_PSN + "europe1997_boekschoten_lamb_comments.psn", 76,
     "ln2+R3l/1ksGs4/ppp1g4/3p4p/5p1n1/2P1P3P/PPKP1P3/1S1b1+r3/LN3b1NL b G3Pgs2p", "w", "resign",
     "hand", "PSN, no oracle; Result 0-1 with black to move and not mated: resignation",
     ["psn-resolver"])
hand(_PSN + "europe1997_hosking_lamb.psn", 54,
     "ln1p1g1nl/2g2k3/p5spp/5p1l1/4p1p1n/1P4S1P/P3PPPP1/4G1SK1/+r3SG1NL b B2Prb2p", "w", "resign",
     "hand", "PSN, no oracle; Result 0-1 with black to move and not mated: resignation",
     ["psn-resolver"])
hand(_PSN + "europe1997_hosking_pottier.psn", 85,
     "l6kl/6+R2/nP1p1s+Bpp/p1S1ppP2/2P4P1/5RG1P/P+spPP1N2/3K2+b2/LNG5L w GN3Pgs", "b", "resign",
     "hand", "PSN, no oracle; Result 1-0 with white to move (in check, not mated): resignation",
     ["psn-resolver"])
hand(_PSN + "europe1997_miyamoto_fukumura.psn", 127,
     "ln5+Bl/1r4nSk/pppp1sbp1/8p/9/P1P2p3/1PNP1P2P/2GSpg3/L1K5L w N2Pr2gs2p", "b", "checkmate",
     "hand", "PSN, no oracle; Result 1-0 and the final position mates white", ["psn-resolver"])
hand(_PSN + "numbered_no_tags_at_drops.psn", 85,
     "l6kl/6+R2/nP1p1s+Bpp/p1S1ppP2/2P4P1/5RG1P/P+spPP1N2/3K2+b2/LNG5L w GN3Pgs", "b", "resign",
     "hand", "PSN, no oracle; same game as europe1997_hosking_pottier.psn; move numbers are "
     "ignored ('61.' is followed by '52.'); trailing 1-0 gives the winner", ["psn-resolver"])
hand(_PSN + "oshosen26_g3_oyama_nakahara_1976.psn", 161,
     "5Sg1l/9/n3b1G1k/p5ppS/2p1NN2p/P3SPPPP/3P2gS1/8K/L1+p3G1L w L3P2rbn3p", "b", "resign",
     "hand", "PSN, no oracle; 161 moves are written although the PlyCount tag says 176; "
     "Result 1-0 with white to move (in check, not mated): resignation", ["psn-resolver"])
hand(_PSN + "road_to_shodan_short_hodges_nag.psn", 15,
     "lnsgkg1nl/7s1/p2ppp1pp/2p3p2/B8/1r7/P2PPPPPP/2R2K3/LNSG1GSNL w Pb2p", "b", "resign",
     "hand", "PSN, no oracle; short Hodges with $N NAGs; Result 1-0 with white to move: "
     "resignation", ["psn-resolver"])

# USEN: no oracle reads it; decoded with replay_usen.
hand("ShogiBoardQ/tests/fixtures/test_basic.usen", 7,
     "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL w -", "-", "none", "hand",
     "USEN, no oracle; decoded by hand-check tool (same 7 moves as test_basic.usi); the "
     "trailing '.final' section is missing: no ending", ["usen-decoder"])
hand("ShogiBoardQ/tests/fixtures/test_handicap.usen", 11,
     "1n2k2n1/1s2g1g2/ppppppspp/6p2/7P1/2P6/PP1PPPP1P/1B2GS1R1/LNSGK2NL b -", "w", "resign", "hand",
     "USEN, no oracle; custom start (四枚落ち board, white to move); final action 'r' = "
     "resign by the side to move (black)", ["usen-decoder"])

# Start positions the oracles get wrong.
hand("bioshogi/spec/transform/KIF_2手目から始まる/source.kif", 2,
     "lnsgkgsnl/1r5b1/pppp1pppp/4p4/9/2P3P2/PP1PPP1PP/1B5R1/LNSGKGSNL w -", "b", "resign", "hand",
     "BOD without a 手番 line; numbering starts at 2 and move 2 moves the white pawn on 5三, so "
     "white is to move at the start (both oracles assume black and fail at move 1); 4 投了 "
     "is white's; 'まで5手で先手の勝ち' has a wrong count but the same winner")
hand("bioshogi/spec/transform/柿木将棋_KIF_詰将棋なのに上手下手表記/source.kif", 1,
     "8k/8G/8G/9/9/9/9/9/9 w -", "-", "none", "hand",
     "partial BOD of 3 ranks x 2 files (files 2-1), read as the top-right corner of an "
     "otherwise empty board; 下手 (black) to move with 金 in hand; '1 12金' (half-width "
     "digits, no 打, no origin) is the drop G*1b, which mates, but the record writes no "
     "ending; cshogi cannot read it, rsshogi takes '12金' for an unknown terminal word")
hand("bioshogi/spec/transform/ぴよ将棋_KIF_その他_八枚落ちトンボ/source.kif", 2,
     "4k4/1r5b1/p1ppppppp/1p7/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", "-", "none", "cshogi",
     "checked by hand: 手合割 その他 + BOD + '上手番' (white to move); rsshogi ignores "
     "上手番 and fails at move 1", ["cshogi"])
hand("bioshogi/spec/transform/ぴよ将棋_KIF_その他_王vs飛角/source.kif", 3,
     "9/7+R1/2k6/9/9/9/9/1B7/9 b -", "-", "none", "cshogi",
     "checked by hand: BOD + '上手番' (white to move); rsshogi ignores 上手番 and fails at "
     "move 1", ["cshogi"])
hand("shogi-kifu-converter/data/tests/csa/tsumeshogi.csa", 3,
     "9/2+L6/2+Rpp4/+r2k1p3/4+p4/1n7/B8/B8/9 w 4g4s3n3l14p", "b", "checkmate", "jkf-expected",
     "checked by hand: 'P-00AL' gives white every piece not on the board (4G 4S 4N 3L 14P, "
     "kings excluded); cshogi ignores it and fails at the knight drop (move 2); rsshogi "
     "replays 3 moves but fills white's hand wrongly (b2g2sn2l5p, a bishop although both "
     "are on the board); tsumeshogi.json agrees with the count", ["jkf-expected"])

# Files one oracle cannot read because of a dialect feature; the other oracle's
# reading was checked against the text (move count) and, for KI2, the resolver.
_RS_REJECTS_LINE = "checked by hand: rsshogi rejects the line {!r}; cshogi read all {} moves"
for _p, _n, _fin, _w, _t, _line in [
    ("bioshogi/spec/transform/激指_KIF_分岐あり/source.kif", 2,
     "lnsgkg1nl/1r3s1b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -", "-", "none",
     "#--separator--"),
    ("json-kifu-format/packages/Kifu-for-JS/examples/fu-10.kif", 9,
     "4SSknl/7g1/4+R1ppp/3pp4/9/5pr2/7PP/9/8L w S2b3gs3n2l10p", "b", "resign", "手数：9"),
    ("json-kifu-format/packages/Kifu-for-JS/examples/files/kif/hashimoto-sos.kif", 7,
     "9/9/3ppP3/3r5/3nk+B3/5R3/3sgG3/9/9 w b2g3s3n4l15p", "b", "checkmate", "手数：7手"),
    ("mog-core-scala/jvm/src/test/resources/kif/mate/001.kif", 59,
     "8k/6+BG1/5PP2/9/5G3/7P1/9/9/9 w 2rb2g4s4n4l15p", "b", "checkmate", "手数：59"),
    ("json-kifu-format/packages/json-kifu-format/test/files/kif/henka.kif", 12,
     "ln1gk1snl/1r1s2g2/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL b Bb", "-",
     "interrupted", "&読み込み時表示"),
    ("json-kifu-format/packages/json-kifu-format/test/files/kif/no_henka.kif", 11,
     "lnsgk1snl/1r4g2/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL w Bb", "-", "none",
     "&読み込み時表示"),
    ("json-kifu-format/packages/json-kifu-format/test/files/kif/no_henka.kifu", 11,
     "lnsgk1snl/1r4g2/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL w Bb", "-", "none",
     "&読み込み時表示"),
    ("json-kifu-format/packages/json-kifu-format/test/files/kif/ryuou4.kif", 101,
     "l8/3l1+Rp1+L/3kG4/ppp2p3/1n1p2P2/P1P1PP3/1PSP1G2p/1KG6/LN1s5 w BN4Prbg2sn", "b", "resign",
     "&読み込み時表示"),
    ("kif-parser/docs/examples/[handmade]comment.kifu", 2,
     "lns1kgsnl/1r1g3b1/ppppppppp/9/9/1P7/P1PPPPPPP/1B5R1/LNSGKGSNL b -", "w", "illegal_move",
     "&しおり１#コメント9"),
    ("kif-parser/docs/examples/[shogigui]bookmark.kifu", 7,
     "lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1S5R1/LN1GKGSNL w Bb", "-", "none",
     "&しおり１"),
    ("kif-parser/reverse-temporary/kif/[shogigui]bookmark.kifu", 7,
     "lnsgkg1nl/1r5s1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1S5R1/LN1GKGSNL w Bb", "-", "none",
     "&しおり２"),
    ("kif-parser/test-data/test-bookmark.kif", 3,
     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w -", "-", "none",
     "&しおり１"),
]:
    hand(_p, _n, _fin, _w, _t, "cshogi", _RS_REJECTS_LINE.format(_line, _n), ["cshogi"])
del _p, _n, _fin, _w, _t, _line

hand("mog-core-scala/jvm/src/test/resources/kif/game/006.kif", 8,
     "lnsg1g2l/1r3skb1/ppppppnpp/9/9/9/PPPPPP1PP/1B5R1/LNSGKGSNL b Pp", "-", "none", "cshogi",
     "checked by hand: the variations repeat main-line moves (変化：1手 1 ３六歩 ...); rsshogi "
     "fails on them ('variation start out of range: 3'); main line has 8 moves, no ending",
     ["cshogi"])
hand("bioshogi/spec/transform/激指定跡道場4_不明_クリップボード書き出し/source.ki2", 2,
     "lnsgkg1nl/1r3s1b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -", "-", "none", "cshogi",
     "checked by hand: rsshogi rejects the '------------------------------' footer line; "
     "cshogi and the KI2 resolver read the 2 moves", ["cshogi", "ki2-resolver"])
hand("json-kifu-format/packages/json-kifu-format/test/files/ki2/7mai.ki2u", 2,
     "3gkg3/1s7/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", "-", "interrupted", "cshogi",
     "checked by hand: 左七枚落ち is not in cshogi's table (this script supplies it: 3一 silver "
     "removed, as △８二銀 from 7一 requires); rsshogi rejects the line '△８二銀    ▲７六歩'; "
     "KI2 resolver agrees", ["cshogi", "ki2-resolver"])
hand("bioshogi/spec/transform/基本_KI2_難しい表記多用/source.ki2", 114,
     "3+p+p+p1+B+R/3+p1+p1+B+R/3+p+p+p3/9/9/9/3+P+P+P3/3+P1+P3/3+P+P+P3 b 4g4s4n4l2p", "w",
     "resign", "rsshogi",
     "checked by hand: cshogi's KI2 reader asserts on the 右/左/上/引/寄/直 combinations; "
     "rsshogi and the KI2 resolver agree on all 114 moves; board has no kings, so "
     "'まで114手で後手の勝ち' can only be a resignation", ["rsshogi", "ki2-resolver"])
hand("mog-core-scala/jvm/src/test/resources/ki2/game/003.ki2", 34,
     "ln5nl/1r2pk1b1/p1pp1g1pp/4Ppp2/1p7/2P6/PPBP1PPPP/4R1K2/LN1G1GSNL b G3s", "-", "none",
     "rsshogi",
     "checked by hand: cshogi's KI2 reader asserts (ambiguous candidate); rsshogi and the "
     "KI2 resolver agree; no まで line (rsshogi's reported Interrupt is its default)",
     ["rsshogi", "ki2-resolver"])
hand("ShogiBoardQ/tests/fixtures/test_handicap_2piece.csa", 2,
     "lnsgkgsnl/9/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -", "-", "none", "rsshogi",
     "checked by hand: P rows use 2-character cells ('P2 * * * * * * * * *'), cshogi raises; "
     "read as 二枚落ち with white ('-') to move, then -3334FU +7776FU; no ending", ["rsshogi"])
hand("json-kifu-format/packages/json-kifu-format/test/files/csa/9fu_komabetsu.csa", 61,
     "7p1/7p1/7p1/7pR/7p1/7pk/7pr/7pL/7p1 w 4S4N3L", "b", "checkmate", "rsshogi",
     "checked by hand: per-piece P+/P- lines only; cshogi segfaults; rsshogi's start equals "
     "9fu.csa's P1..P9 board and both end in the same position; %TSUMI", ["rsshogi"])
for _p in ("json-kifu-format/packages/json-kifu-format/test/files/jkf/ryuou201409020101.jkf",
           "json-kifu-format/packages/Kifu-for-JS/examples/files/jkf/ryuou201409020101.jkf"):
    hand(_p, 117,
         "l+R6l/9/2B1p1+P2/p2k4p/2N1Rg3/P1P1s4/1PG5P/1K3S3/LN1+p1b1NL w 6P2g2sn3p", "b", "resign",
         "cshogi",
         "checked by hand: drops are written with \"from\": null, which rsshogi rejects; the "
         "script's JKF reading replayed on cshogi gives the same game and final position as "
         "kif/ryuou201409020101.kif; special TORYO with white to move", ["cshogi"])
del _p
hand("mog-core-scala/jvm/src/test/resources/kif/game/012.kif", 121,
     "l4S2l/5bS2/2n1g1p2/p1p1pp2p/3P2k2/PrPg1G2P/1P1n1P1p1/1K2P4/LN6L w RNPbg2s3p", "b", "resign",
     "cshogi",
     "checked by hand: '122 投了' is followed by a stray '123 中断' and 'まで122手で中断'; the "
     "game ended at the first terminal line, white's resignation (rsshogi agrees)",
     ["cshogi", "rsshogi"])

# Endings that need a reading of comments (see hand_decisions.md: comments
# fill a gap left by the structured ending, they never override one).
hand("kif-parser/docs/examples/[floodgate]wdoor+floodgate-300-10F+Titanda_L+"
     "SILENT_MAJORITY_sf170225_6950XEE+20170302210003.csa", 256,
     "4K4/1+B2+N+NSp1/1+P2+P4/p8/3g4p/2+r2p3/6+n2/5S2+l/1+r4G1k b GNL6Pbg2s2l6p", "d",
     "max_moves", "hand",
     "no '%' line: the game stops at move 256 = the header comment 'Max_Moves:256 and the "
     "floodgate trailer comment reads 'summary:max_moves:Titanda_L draw:... draw'; moves "
     "and position from cshogi and rsshogi, which agree", ["cshogi", "rsshogi"])
hand("mog-core-scala/jvm/src/test/resources/csa/game/002.csa", 258,
     "3+P1G1+R+B/2+N1K4/1+P1+SGG1+L1/2+R6/P2S5/2G+n1+p+p2/7+p1/3+p+p4/5k3 b B2S2N3L10P", "d",
     "impasse", "cshogi",
     "checked by hand: '%JISHOGI,T1' is followed by the comment 'Win by entering king "
     "declaration.' (black, to move, has both kings entered and 40 points), i.e. the CSA "
     "server's #JISHOGI for a declaration; the structured ending %JISHOGI (持将棋) is kept, "
     "as in the same game's kif/game/010.kif and ki2/game/005.ki2 (持将棋); rsshogi agrees",
     ["cshogi", "rsshogi"])

# --------------------------------------------------------------------------
# main

def iter_files(corpus: Path):
    for dp, dn, fn in os.walk(corpus):
        dn.sort()
        for f in sorted(fn):
            if f == "SOURCES.md":
                continue
            yield Path(dp) / f


def facts_for(fmt: str, text: str) -> list[dict]:
    if fmt == "KIF":
        return [kif_facts(text)]
    if fmt == "KI2":
        return [ki2_facts(text)]
    if fmt == "CSA":
        return [csa_facts(g) for g in csa_split_games(text)]
    if fmt == "USI":
        return [{"n_moves": len(g["moves"]), "terminal": g["terminal"], "summary": None,
                 "foul_comment": False} for g in usi_games(text)]
    if fmt == "JKF":
        try:
            _, usi, terminal, _ = jkf_main_line(json.loads(text))
        except Exception:  # noqa: BLE001
            return [{"n_moves": None, "terminal": None, "summary": None, "foul_comment": False}]
        return [{"n_moves": len(usi), "terminal": terminal, "summary": None,
                 "foul_comment": False}]
    return [{"n_moves": None, "terminal": None, "summary": None, "foul_comment": False}]


def rs_view(g: dict | None) -> tuple | None:
    if not g or g.get("status") not in ("ok", "illegal"):
        return None
    return g["plies"], g["final_sfen"]


def decide(rel: str, gi: int, fmt: str, facts: dict, cs: dict | None, rs: dict | None,
           jx: dict | None, cs_notes: list[str]) -> dict:
    """Automatic decision; returns a row dict or raises LookupError."""
    views = {}
    if cs and cs.get("plies") is not None:
        views["cshogi"] = (cs["plies"], cs["final"])
    rv = rs_view(rs)
    if rv:
        views["rsshogi"] = rv
    if jx:
        views["jkf-expected"] = (jx["plies"], jx["final"])
    if "cshogi" not in views or "rsshogi" not in views:
        raise LookupError("fewer than two oracles read it")
    if len(set(views.values())) != 1:
        raise LookupError(f"oracles disagree: {views}")
    # cshogi must have read every move the text holds (it skips what it cannot read)
    if facts.get("n_moves") is not None and cs.get("parsed_moves") != facts["n_moves"]:
        raise LookupError(f"cshogi parsed {cs.get('parsed_moves')} moves, text has "
                          f"{facts['n_moves']}")
    plies, final = views["cshogi"]
    stm = side_to_move(final)
    n_text = facts["n_moves"]
    status = "ok"
    termination, winner, remark = text_ending(facts, stm, is_mate(final))
    if plies < n_text:
        illegal_last = plies == n_text - 1
        foul = (termination == "illegal_move") or facts.get("foul_comment")
        if illegal_last and foul:
            termination, winner = "illegal_move", OPP[stm]
            remark = "last move is illegal and the record marks the foul"
        elif termination == "none" and (cs.get("fail") or "").endswith("illegal"):
            status = f"stop:{plies + 1}:illegal"
            remark = (f"move {plies + 1} of {n_text} is illegal and nothing marks a foul: "
                      "the record stops early")
        else:
            raise LookupError(f"stops early at move {plies + 1}; the text ends with "
                              f"{termination}")
    if remark and "disagrees" in remark:
        raise LookupError(remark)
    if termination == "checkmate" and not facts.get("terminal") and "の勝ち" in (
            facts.get("summary") or ""):
        remark = ("'まで…の勝ち' names only the winner; the final position mates the loser, "
                  "so checkmate rather than resignation")
    if termination != "checkmate" and status == "ok" and is_mate(final):
        remark = (remark + "; " if remark else "") + "the final position is checkmate"
    agree = [k for k in views if k != "cshogi"]
    note = "agrees: " + ", ".join(agree)
    if cs_notes:
        note += "; cshogi input: " + ", ".join(cs_notes)
    if remark:
        note += "; " + remark
    return dict(plies=plies, final_sfen=final, winner=winner, termination=termination,
                status=status, decided_by="cshogi", note=note)


RS_TERM = {"Resign": "resign", "Mate": "checkmate", "Interrupt": "interrupted",
           "RepetitionDraw": "repetition", "Impasse": "impasse", "Timeout": "timeout",
           "WinByIllegalMove": "illegal_move", "LoseByIllegalMove": "illegal_move",
           "WinByDeclaration": "entering_king", "MaxMoves": "max_moves", "NoMate": "no_mate",
           "": "none"}


def rs_winner(result: str | None) -> str:
    if not result:
        return "-"
    if result.startswith("BlackWin"):
        return "b"
    if result.startswith("WhiteWin"):
        return "w"
    if result.startswith("Draw"):
        return "d"
    return "-"


def rs_ending(fmt: str, rs: dict) -> tuple[str | None, str | None]:
    """rsshogi's ending in our vocabulary, or (None, None) where it says nothing
    comparable: its KI2 reader reports Interrupt when a record has no ending
    line (raw text empty), its USI lines carry no result here, and it keeps
    words it does not know (封じ手, Time-up, "先手 反則負け") as Unknown."""
    kind = rs.get("terminal") or ""
    if fmt == "USI" or kind.startswith("Unknown") or (
            fmt == "KI2" and kind == "Interrupt" and not rs.get("terminal_raw")):
        return None, None
    return RS_TERM.get(kind, "unknown"), rs_winner(rs.get("result"))


def check_view(check: str, path: Path, fmt: str, text: str, cs, rs, jg):
    """(plies, final) according to the named oracle or hand-check tool."""
    if check == "cshogi":
        return (cs["plies"], cs["final"]) if cs and cs.get("plies") is not None else None
    if check == "rsshogi":
        return rs_view(rs)
    if check == "jkf-expected":
        return (jg["plies"], jg["final"]) if jg else None
    if check == "ki2-resolver":
        _, start = preprocess_kif_like(text, "KI2", [])
        r = replay_ki2_text(start or HIRATE, text)
    elif check == "psn-resolver":
        r = replay_psn(text)
    elif check == "usen-decoder":
        r = replay_usen(text)
    else:
        raise KeyError(check)
    return r["plies"], r["final"]


def settle_by_the_moves(row: dict, cs: dict | None) -> None:
    """The moves decide the result where they can, the text only where they cannot (see
    kifudex's replay module): a last position that is checkmate (cshogi says so) is won by the
    side that gave mate, whatever the ending line says or omits; a last position that occurs a
    fourth time (Repetitions) is a draw, or lost by the side whose every move since the first
    of the four occurrences gave check. A fourth occurrence before the end of a record would
    cut the game there: none is in the corpus, and one stops the build."""
    if row["status"] != "ok":
        return
    said = (row["termination"], row["winner"])
    rep = (cs or {}).get("fourfold")
    if is_mate(row["final_sfen"]):
        judged = ("checkmate", OPP[side_to_move(row["final_sfen"])])
        why = "the final position is checkmate (cshogi)"
    elif rep and (cs["plies"], cs["final"]) == (row["plies"], row["final_sfen"]) \
            and rep["ply"] == row["plies"]:
        judged = ("repetition" if rep["winner"] == "d" else "perpetual_check", rep["winner"])
        why = "the final position occurs a fourth time (cshogi's positions)"
    else:
        if rep and rep["ply"] < row["plies"]:
            raise SystemExit(f"{row['path']}#{row['game']}: a position occurs a fourth time "
                             f"after move {rep['ply']}, before the end: decide it by hand")
        return
    if judged == said:
        return
    row["termination"], row["winner"] = judged
    if said[0] == "none":
        row["note"] += f"; no ending is written and {why}"
    else:
        row["note"] += f"; {why}: {judged[0]}, though the text says {said[0]}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--out", type=Path, default=HERE / "expected.tsv")
    ap.add_argument("--rsshogi", default="auto")
    ap.add_argument("--dump-oracles", type=Path)
    ap.add_argument("--report-undecided", action="store_true",
                    help="list undecided games instead of failing")
    args = ap.parse_args(argv)
    corpus = args.corpus.resolve()
    rs_all = rsshogi_results(args.rsshogi, corpus)

    rows, undecided, dump, warnings = [], [], [], []
    row_cshogi = []  # cshogi's replay of each row's game, for settle_by_the_moves
    for path in iter_files(corpus):
        rel = path.relative_to(corpus).as_posix()
        fmt = FORMAT_BY_EXT.get(path.suffix.lower())
        text, _ = decode(path.read_bytes())
        facts_list = facts_for(fmt, text)
        csr = cshogi_isolated(str(path))
        cs_games = csr.get("games") or []
        rs_games = (rs_all or {}).get(rel, {})
        jx = jkf_expected_for(path)
        n_games = max(len(facts_list), len(cs_games), len(rs_games), 1)
        for gi in range(n_games):
            facts = facts_list[gi] if gi < len(facts_list) else facts_list[-1]
            cs = cs_games[gi] if gi < len(cs_games) else None
            rs = rs_games.get(gi)
            jg = jx if gi == 0 else None
            dump.append({"path": rel, "game": gi, "format": fmt,
                         "cshogi": cs if cs else {k: csr[k] for k in ("error", "skip") if k in csr},
                         "cshogi_notes": csr.get("notes"), "rsshogi": rs, "jkf_expected": jg,
                         "facts": facts})
            key = (rel, gi)
            if key in HAND:
                h = dict(HAND[key])
                for check in h.pop("check") or []:
                    if check == "rsshogi" and rs_all is None:
                        continue  # rsshogi not run: nothing to compare
                    src = check_view(check, path, fmt, text, cs, rs, jg)
                    if src != (h["plies"], h["final_sfen"]):
                        warnings.append(f"{rel}#{gi}: hand entry says {check} gives "
                                        f"{(h['plies'], h['final_sfen'])}, it gives {src}")
                rows.append(dict(path=rel, game=gi, **h))
                row_cshogi.append(cs)
                continue
            try:
                row = decide(rel, gi, fmt, facts, cs, rs, jg, csr.get("notes") or [])
            except LookupError as e:
                undecided.append(f"{rel}#{gi}: {e}")
                continue
            if rs and rs.get("status") == "ok" and rs_all is not None:
                rt, rw = rs_ending(fmt, rs)
                if rt is not None and (rt, rw) != (row["termination"], row["winner"]) and not (
                        rt == "resign" and "rather than resignation" in row["note"]):
                    warnings.append(f"{rel}#{gi}: ending {row['termination']}/{row['winner']} "
                                    f"but rsshogi says {rs.get('terminal')}/{rs.get('result')} "
                                    f"({rs.get('terminal_raw')!r})")
            rows.append(dict(path=rel, game=gi, **row))
            row_cshogi.append(cs)

    for row, cs in zip(rows, row_cshogi):
        settle_by_the_moves(row, cs)
    if args.dump_oracles:
        with open(args.dump_oracles, "w", encoding="utf-8") as f:
            for d in dump:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
    for w in warnings:
        print("warning:", w, file=sys.stderr)
    if undecided:
        for u in undecided:
            print("undecided:", u, file=sys.stderr)
        if not args.report_undecided:
            print(f"{len(undecided)} games undecided; add them to hand_decisions.py",
                  file=sys.stderr)
            return 1
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(str(r[c]).replace("\t", " ").replace("\n", " ")
                              for c in COLUMNS) + "\n")
    print(f"wrote {len(rows)} rows to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
