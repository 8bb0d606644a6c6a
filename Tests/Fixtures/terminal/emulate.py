"""What a terminal does with bytes: the screen it shows (pyte, a VT102/xterm-like emulator) and
what it was asked to do beyond drawing, read by a parser of its own (the DEC/ECMA-48 state
machine as xterm, screen and tmux read it: C1 controls also as UTF-8 `C2 80`-`C2 9F`, `ESC k`
as screen's title string). Neither shares code with Sentinel's filters.

stdin: JSON list of {"name", "hex"}; stdout: JSON list of {"name", "title", "icon", "effects",
"display", "size"}. An effect is what reached the terminal and reaches past the screen:
"title" (OSC 0/1/2, ESC k), "clipboard" (OSC 52), "osc <n>", "dcs", "sos", "pm", "apc",
"resize" (CSI t, DECSCPP, DECSNLS, DECSLPP, DECCOLM), "report-screen" (DECRQCRA), "c1" (an
8-bit control), "bidi" (a bidi control printed).
"""
import json
import sys

import pyte

BIDI = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def effects(data: bytes) -> list:
    text = data.decode("utf-8", errors="replace")
    found = []
    state, buf = "ground", ""
    kind = None
    i = 0
    while i < len(text):
        ch = text[i]
        code = ord(ch)
        i += 1
        if 0x80 <= code <= 0x9F:
            # An 8-bit control: xterm (allowC1Printable off) and pyte act on it as ESC + (c - 0x40).
            found.append("c1")
            if state in ("osc", "string") and code == 0x9C:
                found.append(finish(kind, buf))
                state, buf = "ground", ""
                continue
            ch, code = chr(code - 0x40), code - 0x40
            state, buf = "escape", ""
        if state == "ground":
            if ch == "\x1b":
                state, buf = "escape", ""
            elif code in BIDI:
                found.append("bidi")
            continue
        if state == "escape":
            if 0x20 <= code <= 0x2F:
                buf += ch
                continue
            if buf == "" and ch == "[":
                state, buf = "csi", ""
            elif buf == "" and ch in "]P_^Xk":
                state, kind, buf = "string", {"]": "osc", "P": "dcs", "_": "apc", "^": "pm", "X": "sos", "k": "title"}[ch], ""
            elif ch == "\x1b":
                state, buf = "escape", ""
            else:
                state = "ground"
            continue
        if state == "csi":
            if ch == "\x1b":
                state, buf = "escape", ""
            elif 0x40 <= code <= 0x7E:
                found.extend(csi(buf, ch))
                state = "ground"
            elif code >= 0x20:
                buf += ch
            elif code in (0x18, 0x1A):
                state = "ground"
            continue
        if state == "string":
            if ch == "\x07" and kind in ("osc", "title"):
                found.append(finish(kind, buf))
                state, buf = "ground", ""
            elif ch == "\x1b":
                state = "string-escape"
            elif code in (0x18, 0x1A):
                state, buf = "ground", ""
            else:
                buf += ch
            continue
        if state == "string-escape":
            # ST ends the string; any other escape aborts it (and is read afresh).
            if ch == "\\":
                found.append(finish(kind, buf))
                state, buf = "ground", ""
            else:
                state, buf = "escape", ""
                i -= 1
    # A string still open at the end has reached the terminal, which waits for the rest.
    if state in ("string", "string-escape"):
        found.append(finish(kind, buf))
    return [effect for effect in found if effect]


def finish(kind: str, body: str) -> str:
    if kind == "osc":
        number = body.split(";", 1)[0]
        return {"0": "title", "1": "title", "2": "title", "52": "clipboard"}.get(number, "osc " + number)
    return kind


def csi(body: str, final: str) -> list:
    intermediates = "".join(c for c in body if 0x20 <= ord(c) <= 0x2F)
    parameters = body.rstrip(intermediates)
    if final == "t" or (final == "|" and intermediates in ("$", "*")):
        return ["resize"]
    if final in "hl" and parameters.startswith("?") and "3" in parameters[1:].split(";"):
        return ["resize"]
    if final == "y" and intermediates == "*":
        return ["report-screen"]
    return []


class Recording(pyte.Screen):
    """A screen that keeps a title and counts resizes (pyte's own keep neither on an OSC it reads)."""

    def __init__(self, columns: int, lines: int):
        super().__init__(columns, lines)
        self.resizes = 0

    def resize(self, lines=None, columns=None):
        self.resizes += 1
        super().resize(lines, columns)


def main() -> None:
    answers = []
    for case in json.load(sys.stdin):
        data = bytes.fromhex(case["hex"])
        screen = Recording(80, 24)
        stream = pyte.ByteStream(screen)
        stream.feed(data)
        found = effects(data)
        if screen.resizes:
            found.append("resize")
        display = [line.rstrip() for line in screen.display]
        while display and not display[-1]:
            display.pop()
        answers.append(
            {
                "name": case["name"],
                "title": screen.title,
                "icon": screen.icon_name,
                "effects": sorted(set(found)),
                "display": display,
                "size": [screen.columns, screen.lines],
            }
        )
    json.dump(answers, sys.stdout)


main()
