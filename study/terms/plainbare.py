"""Bare definientia at the opening of a clause (「X Y」, no marker word) that the walk of
study/terms/plainwalk.py is not confident of, kept in narrow shapes, each a path of its own
measured by the gate on its own:

- ``before``: a definiens running up to the next word of the text glossed with 謂/猶/即 in the same
  clause (「𤣥端禮服至謂至于大門外」「某使者名命謂…」「饔人掌割烹者摡猶拭也」);
- ``pair``: a clause of two characters, 「X Y也」, after the end of another (也/矣/焉, or the note's
  opening), whose headword is a character the walk never takes for a word alone (plaincheck.py head_ok:
  it is mostly a particle) glossed by one character: 「即就也」「將進也」「在察也」「若順也則法也」「而汝也」;
- ``doer``: a word of the text naming who does something (X者) glossed by who that is, closed by 者
  (「宅者未仕而家居者也」「擯者主人之相禮者」; a rescue of the form check, plainrescue.py RESCUES);
- ``zhelong``: a description of who or what the word is closed by 者, longer than the eight
  characters a definiens not closed by 也 may run (「先生鄉中公卿大夫致仕者謀商度也」
  「摯執之而至以將其厚意者士用雉…」).

Neither when the definiens counts (「長三尺」「侯道五十弓參三之…」), gives a reading (「燅音尋」),
acts as someone (「君為臣下射」), tells where someone faces or goes (「介立門左北面…」「…是於賤者」),
or, after an act of the text, tells another act (「賔降西階往洗」; an act of the text before a
marker gloss is never read so): narration, not a meaning.
"""

from __future__ import annotations

import re

from .plaincheck import NUMERALS, gloss_ok, has_act, head_ok, refers

NARRATION = re.compile("[于於是]|[东西南北]面")


def _narrates(head: str, gloss: str) -> bool:
    return (
        bool(set(head + gloss) & NUMERALS)
        or gloss.startswith(("音", "为", "所以"))
        or NARRATION.search(gloss) is not None
        or has_act(head)
        and has_act(gloss)
    )


def before_marker(head: str, gloss: str, marker: str, how: str, last: bool, confident: bool) -> str:
    """'before' for a definiens of two to six characters at the clause opening that runs up to the
    next word of the text glossed by 謂/猶/即 (the walk's next start: ``how`` 'next', not ``last``);
    the headword names a thing or a person, not an act."""
    if confident or marker or how != "next" or last or not 2 <= len(gloss) <= 6 or has_act(head):
        return ""
    return "" if _narrates(head, gloss) else "before"


def described(head: str, gloss: str, marker: str, how: str, ctx: object) -> bool:
    """A description closed by 者 (``how`` 'zhe') of at most twelve characters: who or what the
    word is (a rescue of the length check, study/terms/plainrescue.py RESCUES)."""
    return how == "zhe" and not marker and gloss.endswith("者") and len(gloss) <= 12 and not _narrates(head, gloss)


def doer_named(head: str, gloss: str, marker: str, how: str, ctx: object) -> bool:
    """「宅者未仕而家居者也」「送者女父母所遣送女者」「擯者主人之相禮者」: a word of the text naming
    who does something (X者) at the opening of a clause, glossed by who that is (…者) — without a
    marker, closed by 也 or ending at that 者; 未/既/非 inside tell the kind of person, not a reason.
    Not when the definiens opens with 與/及/以/有 (「疾者與養疾者」: more people, not who)."""
    plain = re.sub("[既未非]", "口", gloss)
    return (
        not marker
        and how in ("end", "zhe")
        and 2 <= len(head) <= 4
        and head[-1] == "者"
        and head_ok(head[:-1])
        and 3 <= len(gloss) <= 10
        and gloss[-1] == "者"
        and gloss[0] not in "与及以有"
        and gloss_ok(plain)
        and not refers(head, gloss)
    )


PAIR_BAD = set("之其所者也矣焉乎谓犹盖")  # particles only, or the formula's own markers (「猶面也」)


def pair(norm: str, start: int, end: int, closed: bool, classical: str) -> bool:
    """「即就也」「將進也」: the clause ``norm[start:end]`` is a character of the classical text
    glossed by one other character, closed by 也 and opening after the end of another clause."""
    if not closed or end - start != 2 or start > 0 and norm[start - 1] not in "也矣焉耳。":
        return False
    head, gloss = norm[start], norm[start + 1]
    return (
        head in classical
        and not head_ok(head)  # a word the walk reads itself (「饌陳也」) is left to it
        and head not in PAIR_BAD
        and head != gloss
        and gloss not in NUMERALS
        and gloss_ok(gloss)
    )
