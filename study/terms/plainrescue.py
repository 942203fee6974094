"""Readings that keep a pair of unpunctuated commentary one check of
:func:`study.terms.plaincheck.fault` turns away, when a narrower reading of its shape fits: a
negated word, a word spelt out, 謂以…, a person, 既/未/非 telling the time of the act, the act done
to its thing (…之), an officer (有司), a word with 之/將/以/為 at one edge, who does something (X者)
named by who that is (…者, plainbare.py); and a character the passage writes only inside a longer
word (燕 of 燕几, :func:`component`). Each is a path of its own (k:…-neg, -spelt, -part, …),
measured by the gate on its own.
"""

from __future__ import annotations

import re

from .glossrules import Context, person, unsound
from .lexicon import category_of
from .plainbare import described, doer_named
from .plaincheck import (
    CLOSE_BAD,
    FUNCTION_CHARS,
    LONE_BAD,
    NEGATION,
    OPEN_BAD,
    fault,
    gloss_ok,
    has_act,
    head_ok,
    refers,
)


def rescue(why: str, head: str, gloss: str, marker: str, how: str, ctx: Context, where: int) -> str:
    """A gloss one check of :func:`fault` turns away that a narrower reading of its shape keeps:
    the name of that reading (a path of its own, measured by the gate on its own), or ''."""
    for name, check, fits, also in RESCUES:
        if (
            why == check
            and fits(head, gloss, marker, how, ctx)
            and not fault(head, gloss, marker, how == "end", ctx, where, frozenset({check, *also}))
        ):
            return name
    return ""


def negated_word(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「不虞意外不測也」「不趨緩步也」: a two-character word of the text opening with a negation,
    glossed by a short definiens closed by 也 — what the negated act amounts to; not a reason
    (「不祭者酬禮殺也」「不拜禮不主于己也」「不嘏統于主人也」)."""
    return (
        len(head) == 2
        and head[0] in NEGATION
        and how == "end"
        and not marker
        and len(gloss) <= 6
        and not re.search("[于於]", gloss)
    )


def expanded(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「小臣正小臣之長也」「廟門西廟門外之西也」: a word of three characters or more whose
    definiens opens with two of its own characters — it spells the word out, the text does not
    go on; also when the definiens ends at the class it names, not at 也 (「僕人正僕人之長師…」,
    k:…-spelt:zhe)."""
    return len(head) >= 3 and gloss[:2] in head and (how == "end" or how == "zhe" and gloss.endswith(("之长", "之属")))


def means_said(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「沃洗謂以枓斟水而沃洗爵者也」「結于面謂以繩維四足…結于胸前也」: 謂 says the act of the text
    is done so — its definiens, not a paraphrase of the text running on."""
    return marker == "谓" and how == "end"


def named_person(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「上大夫卿也」「哀顯相助祭者也」: a title of the text named by another title, or by 「…者」
    (who it is), closed by 也 — a gloss that need share no character with its word."""
    return how == "end" and (person(gloss) or gloss.endswith("者") and len(gloss) <= 5)


def aspect(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「退既飲食退也」「告備告既殺也」「宅者未仕而家居者也」: 既/未/非 inside a definiens closed by
    也 tell the time or kind of the act the word names (after …, not yet …) — not a reason — when
    the definiens shares a word character with its headword or names who it is (…者)."""
    plain = re.sub("[既未非]", "口", gloss)
    return (
        how == "end"
        and plain != gloss
        and (gloss[0] not in "既未非" or gloss[-1] == head[-1])  # 「退既飲食退也」
        and len(head) <= 3
        and len(gloss) <= 10
        and head_ok(head)
        and gloss_ok(plain)
        and not refers(head, gloss)
        and (bool(set(head) & set(gloss) - FUNCTION_CHARS) or gloss.endswith("者"))
    )


def done_to_it(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「宿懸前射一日懸之也」「午割一縱一横割之也」「南肆向南陳之也」: a definiens closed by 也 that
    tells the act of a two-character word done to its thing (…之) and shares a word character
    with it — not a fragment broken off before its object, nor who does it where (「主人適其廟而祭之」
    「各於其階下脱之」)."""
    return (
        how == "end"
        and len(head) == 2
        and 4 <= len(gloss) <= 8
        and gloss.endswith("之")
        and not re.search("[于於]", gloss)  # 「各於其階下脱之」: where it is done, narration
        and not person(gloss[:2])
        and not unsound(head, gloss[:-1], has_act(head))
        and bool(set(head) & set(gloss[:-1]) - FUNCTION_CHARS)
    )


def officer(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「士有司也」: 有司 names an officer, it does not say there is something."""
    return how == "end" and person(gloss)


def edged(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「以行待旦行也」「將命奉主君命以請也」「為期與諸執事定祭早晏之期也」「覆之勺加尊上覆向下也」:
    a two-character word of the text with 之/其/將/以/為 at one edge, glossed by a definiens closed by
    也 that takes up its other character — the word and its meaning, not a clause."""
    word = edge_word(head)
    return (
        how == "end"
        and bool(word)
        and word in gloss[1:]
        and len(gloss) <= 10
        and gloss_ok(gloss)
        and gloss != head
        and not refers(head, gloss)
        and not re.search("[于於]", gloss)
    )


EDGES = set("之将以为")  # not 其: 「其摯」 reads as 摯 (study/terms/plainwalk.py SKIP)


def edge_word(head: str) -> str:
    """The word character of a two-character headword with 之/將/以/為 at one edge ('' if none)."""
    if len(head) != 2 or (head[0] in EDGES) == (head[1] in EDGES):
        return ""
    word = head[1] if head[0] in EDGES else head[0]
    return word if word not in OPEN_BAD | CLOSE_BAD | LONE_BAD else ""


def sequel(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「退反見畢而賓退也」「出謂見畢而賓出也」: a one-character act of the text glossed by the
    moment it comes (…而X) — the definiens ends with the word itself, the text does not go on."""
    return (
        how == "end"
        and len(head) == 1
        and 4 <= len(gloss) <= 8
        and gloss[-1] == head
        and "而" in gloss[2:-1]
        and head_ok(head)
        and gloss_ok(gloss)
        and not re.search("[于於]", gloss)
    )


def kind_of_person(head: str, gloss: str, marker: str, how: str, ctx: Context) -> bool:
    """「士主人之私臣也」: a person of the text glossed by whose officer or servant they are (…之臣,
    …之屬, …之長), not by what they do."""
    return how == "end" and len(gloss) <= 8 and re.search("之(私)?(臣|属|长|吏)$", gloss) is not None


def again(head: str, rest: str) -> bool:
    """「禰父廟奠幣于禰告為君使也」: a one-character word of the text (a place) named again after
    于/於 by an act of one or two characters, which opens a new statement."""
    return len(head) == 1 and category_of(rest[:1]) == "action" and bool(re.match(f"..?[于於]{re.escape(head)}", rest))


def cut_short(head: str, gloss: str, after: str) -> str:
    """A word of the text opening a clause without 也 after its definiens, cut where a new
    statement opens (plainwalk.py OPENERS), read only when the definiens spells the word out: it holds
    each of the word's characters and ends on one (「問名問女之名将歸卜…」「斂衾擬制大斂所用之衾
    蓋…」「内文毛文向内防損傷也」; not 「對敦對席之敦蓋也」, where 蓋 is the lid, nor 「獻笙略於工
    獻衆笙」, a comparison). Other cuts ran into narration (「納徵禮最重故…」「郊外無人故…」); a
    definiens before 不敢 (「奠幣奠束帛于地不敢直受」) was right on the development chapters but
    not on held-out ones, and is left."""
    if again(head, after) and len(gloss) <= 4:
        return "again"
    if len(head) < 2 or len(gloss) > 10 or after.startswith("盖也") or re.search("[于於]", gloss):
        return ""
    return "spelt-cut" if all(ch in gloss for ch in head) and gloss[-1] in head else ""


# 「戒射預告有司以將射也」: 將 after 以 tells what the act is for; it opens no new statement.
PURPOSE = re.compile("以(将|欲|防|虑|恐)")


def purpose(gloss: str) -> str:
    """'purpose' for a definiens that runs on past 以將/以防…, its aim (「戒射預告有司以將射也」
    「釋幣者告以將入覲也」), where a cut before the opener (plainwalk.py OPENERS) left it ending in 以."""
    return "purpose" if PURPOSE.search(gloss, 1) else ""


def clause_head(head: str) -> bool:
    """A headword :func:`head_ok` turns away that may still open a clause: 之/將/以/為 at one edge
    (:func:`edge_word`) or 言 opening a phrase of the text (:func:`said`)."""
    return bool(edge_word(head)) or said(head) or who_is(head)


def who_is(head: str, gloss: str = "", marker: str = "谓", how: str = "end", ctx: Context | None = None) -> bool:
    """「異爵者謂卿大夫爵尊于士者也」: a phrase of the text naming who (…者) glossed by 謂 with
    who they are (…者), closed by 也; called with the headword alone, whether it may open a gloss."""
    if len(head) < 2 or head[-1] != "者" or not head_ok(head[:-1]):
        return False
    return not gloss or marker == "谓" and how == "end" and gloss[-1] == "者" and 3 <= len(gloss) <= 10


def said(head: str, gloss: str = "", marker: str = "", how: str = "end", ctx: Context | None = None) -> bool:
    """「言事君言忠也」「言使臣言禮也」: a phrase of the text opening with 言 (speak of …), glossed by
    what such speech is of — the definiens opens with 言 too. The phrase is a word of the text at that
    place only when the passage writes it whole (與君言言使臣); called with the headword alone, whether
    it may open a gloss."""
    if len(head) < 3 or head[0] != "言" or not head_ok(head[1:]):
        return False
    return not gloss or (
        how == "end"
        and not marker
        and gloss[0] == "言"
        and 2 <= len(gloss) <= 4
        and gloss_ok(gloss[1:])
        and not unsound(head[1:], gloss[1:], has_act(head[1:]))
    )


def shape_of(head: str, gloss: str, marker: str, how: str, confident: bool, before: str, after: str) -> str:
    """The reading that keeps a pair the walk is not confident of ('' if none): a word pointed at
    by 此 in mid-clause (``before``: the clause before the word; :func:`pointed`), or a definiens
    cut before a new statement (:func:`cut_short`)."""
    if before:
        return "this" if pointed(before, marker, how) else ""
    return "" if confident or marker or how != "opener" else cut_short(head, gloss, after)


def pointed(before: str, marker: str, how: str) -> bool:
    """「…賔拜辱此拜辱即拜送也」「此宰謂膳宰掌治官饌者也」「此主人謂女父也」: 此 points at a word of
    the text, glossed by 即/謂 up to the end of the clause, wherever the clause began; not 其 (「其摯謂
    向時所執以來者也」「其他謂…」: 其 belongs to the word)."""
    return before[-1] == "此" and marker in ("即", "谓") and how == "end"


RESCUES = (
    ("neg", "negated-head", negated_word, ()),
    ("spelt", "text-goes-on", expanded, ()),
    ("means", "means", means_said, ("clause",)),
    ("who", "unshared", named_person, ()),
    ("aspect", "form", aspect, ()),
    ("doneto", "unsound", done_to_it, ("close",)),
    ("officer", "there-is", officer, ()),
    ("edged", "form", edged, ()),
    ("sequel", "text-goes-on", sequel, ()),
    ("sequel", "form", sequel, ()),
    ("class", "role-does", kind_of_person, ("text-goes-on",)),
    ("said", "form", said, ("unsound", "text-goes-on")),
    ("whois", "form", who_is, ()),
    ("zhelong", "length", described, ()),
    ("doer", "form", doer_named, ("negated-gloss",)),
)


def component(head: str, gloss: str, how: str, after: str, ctx: Context) -> str | None:
    """A one-character word the passage writes only inside a longer word that the commentary
    glosses next: None (「宗法五世…宗室大宗子之家也」, not a headword of its own), unless the
    character is glossed first by one or two characters closed by 也 — 'part', a path of its own
    (「燕安也燕几平日嘗慿之以安體者也」「庶衆也庶襚…」「諏謀也諏日…」). '' when the word stands
    alone."""
    if len(head) != 1 or not inside_longer(head, after, ctx):
        return ""
    return "part" if how == "end" and len(gloss) <= 2 else None


def inside_longer(head: str, after: str, ctx: Context) -> bool:
    """Whether a character the passage only writes inside a longer word (宗室) opens that word
    in a gloss of its own further on."""
    for i in range(1, len(after) - 1):
        word = after[i : i + 2]
        opens = after[i - 1] in "也。"  # the longer word opens a gloss of its own
        if opens and word[0] == head and ctx.classical.count(word) == ctx.classical.count(head):
            return True
    return False
