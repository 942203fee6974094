"""Card templates and CSS of the note types (plain Anki templates: no add-on, no JavaScript).

A card whose front would be empty is never made: each optional card's front is wrapped in
``{{#Field}}…{{/Field}}`` of the field that enables it.
"""

from __future__ import annotations

from .deckspec import MAX_PROMPTS

CSS = """\
.card {
  font-family: "Noto Serif CJK SC", "Source Han Serif SC", "Songti SC", "STSong", "SimSun",
    "Noto Sans CJK SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", serif;
  font-size: 24px; line-height: 1.7; text-align: center;
  color: #1f1f1f; background-color: #fbf8f1;
  padding: 0 0.5em;
}
.big { font-size: 2.6em; line-height: 1.9; }
ruby rt { font-size: 0.42em; font-family: "Noto Sans", "Helvetica Neue", Arial, sans-serif; color: #8a4b1f; }
.kind, .context { font-size: 0.7em; color: #6b6b6b; }
.ask { font-size: 0.9em; color: #444; margin: 0.4em 0; }
.passage, .example, .translation { text-align: left; margin: 0.6em auto; max-width: 36em; }
.passage { font-size: 1.15em; }
.before { text-align: left; margin: 0.3em auto; max-width: 36em; font-size: 0.8em; color: #777; }
.seq .full { display: block; font-size: 0.75em; color: #555; }
.translation { color: #2b4f6e; }
.hl { color: #b0241b; background-color: #fde3d6; font-weight: bold; }
.cloze { color: #1d5fbf; font-weight: bold; }
ul.glosses, ul.commentary { list-style: none; padding: 0; margin: 0.5em auto; max-width: 36em; }
ul.glosses li { margin: 0.2em 0; }
ul.glosses ruby + .gloss { margin-left: 0.6em; }
ul.commentary { text-align: left; font-size: 0.75em; color: #444; }
.gloss { font-size: 1.1em; }
.who { font-size: 0.65em; color: #777; margin-left: 0.6em; }
ul.commentary .who { margin: 0 0.5em 0 0; }
.also { font-size: 0.8em; color: #2b4f6e; }
.source { font-size: 0.6em; color: #888; margin-top: 1em; }
.modern { font-size: 0.7em; color: #2b4f6e; margin-left: 0.6em; }
.seq { text-align: left; display: inline-block; margin: 0.4em auto; padding-left: 2.2em; }
div.seq { padding-left: 0; }
.seq .ctx, .seq .gap { color: #777; }
.seq .gap { list-style: none; }
.seq .cur { font-weight: bold; }
.seq .q, .seq .ans { color: #1d5fbf; font-weight: bold; }
.nightMode.card, .night_mode .card { color: #e8e6e3; background-color: #1e1f22; }
.nightMode .kind, .nightMode .context, .nightMode .ask, .nightMode .ctx, .nightMode .gap, .nightMode .who,
.nightMode .source, .night_mode .kind, .night_mode .context, .night_mode .ask, .night_mode .ctx,
.night_mode .gap, .night_mode .who, .night_mode .source { color: #a9a9a9; }
.nightMode .hl, .night_mode .hl { color: #ffb4a8; background-color: #4a2520; }
.nightMode .cloze, .nightMode .q, .nightMode .ans, .night_mode .cloze, .night_mode .q, .night_mode .ans { color: #8ab4f8; }
.nightMode .translation, .nightMode .modern, .nightMode .also, .night_mode .translation, .night_mode .modern,
.night_mode .also { color: #9ec3e6; }
.nightMode ruby rt, .night_mode ruby rt { color: #e0a574; }
.nightMode ul.commentary, .night_mode ul.commentary { color: #c8c8c8; }
"""

_SOURCE = '<div class="source">{{Source}}</div>'
_CONTEXT = '<div class="context">{{Context}}</div>'
_COMMENTARY = "{{#Commentary}}{{Commentary}}{{/Commentary}}"
_TRANSLATION = '{{#Translation}}<div class="translation">{{Translation}}</div>{{/Translation}}'
_BEFORE = '{{#Before}}<div class="before">{{Before}}</div>{{/Before}}'
_EXAMPLE = '{{#Example}}<div class="example">{{Example}}</div>{{/Example}}'
_TERM_BACK = '<div class="big">{{Reading}}</div>{{Glosses}}' + _EXAMPLE + _SOURCE
_TERM_FRONT = (
    _CONTEXT + '<div class="big">{{Term}}</div>{{#Sense}}<div class="example">{{Sense}}</div>{{/Sense}}'
    '<div class="ask">何义？</div>'
)
_CLUE_FRONT = _CONTEXT + "{{Clue}}" + '<div class="ask">何词？</div>'
# 义→词 back: the term, then every other term the question accepts (``Sense``: 亦可答：仞)
_CLUE_BACK = (
    '<div class="big">{{Reading}}</div>{{#Sense}}<div class="also">{{Sense}}</div>{{/Sense}}{{Glosses}}'
    + _EXAMPLE
    + _SOURCE
)


def _order(ask: str, shown: str, hidden: str, answer: str) -> tuple[str, str]:
    """Front and back of a neighbour card: ``hidden`` is asked for, ``shown`` is context."""
    head = '<div class="context">{{Title}}</div>'
    cur = '<div class="cur">{{Item}}</div>'
    ctx = f'{{{{#{shown}}}}}<div class="ctx">{{{{{shown}}}}}</div>{{{{/{shown}}}}}'
    if hidden == "Next":
        front_seq, back_seq = ctx + cur + '<div class="q">？</div>', ctx + cur + '<div class="ans">{{Next}}</div>'
    else:
        front_seq, back_seq = '<div class="q">？</div>' + cur + ctx, '<div class="ans">{{Prev}}</div>' + cur + ctx
    front = f'{{{{#Ask{ask}}}}}{{{{#{hidden}}}}}{head}<div class="ask">{answer}</div><div class="seq">{front_seq}</div>{{{{/{hidden}}}}}{{{{/Ask{ask}}}}}'
    back = f'{head}<div class="ask">{answer}</div><div class="seq">{back_seq}</div>{_SOURCE}'
    return front, back


_CLOZES = "".join(f"{{{{cloze:Text{k}}}}}" for k in range(1, MAX_PROMPTS + 1))

TEMPLATES: dict[str, list[tuple[str, str, str]]] = {
    "term": [("词→义", _TERM_FRONT, _TERM_FRONT + '<hr id="answer">' + _TERM_BACK)],
    "term_reverse": [("义→词", _CLUE_FRONT, _CLUE_FRONT + '<hr id="answer">' + _CLUE_BACK)],
    "passage": [
        (
            "经→译",
            _CONTEXT + _BEFORE + '<div class="passage">{{Passage}}</div><div class="ask">何解？</div>',
            _CONTEXT
            + _BEFORE
            + '<div class="passage">{{Passage}}</div><hr id="answer">'
            + _TRANSLATION
            + _COMMENTARY
            + _SOURCE,
        )
    ],
    "passage_reverse": [
        (
            "译→经",
            _CONTEXT + _BEFORE + _TRANSLATION + '<div class="ask">经文如何？</div>',
            _CONTEXT
            + _BEFORE
            + _TRANSLATION
            + '<hr id="answer"><div class="passage">{{Passage}}</div>'
            + _COMMENTARY
            + _SOURCE,
        )
    ],
    "cloze": [
        (
            "填空",
            _CONTEXT + '<div class="passage">{{cloze:Text}}</div>',
            _CONTEXT
            + '<div class="passage">{{cloze:Text}}</div><hr id="answer">'
            + "{{Glosses}}"
            + _TRANSLATION
            + _COMMENTARY
            + _SOURCE,
        ),
    ],
    "order": [
        ("下一个", *_order("Next", "Prev", "Next", "下一{{Unit}}是？")),
        ("上一个", *_order("Prev", "Next", "Prev", "上一{{Unit}}是？")),
        (
            "第几",
            '{{#AskPosition}}<div class="context">{{Title}}</div>'
            '<div class="ask">第 {{Position}} {{Unit}}是？（共 {{Count}}）</div>{{/AskPosition}}',
            '<div class="context">{{Title}}</div><div class="ask">第 {{Position}} {{Unit}}是？（共 {{Count}}）</div>'
            '<hr id="answer"><div class="seq">{{#Prev}}<div class="ctx">{{Prev}}</div>{{/Prev}}'
            '<div class="ans">{{Item}}</div>{{#Next}}<div class="ctx">{{Next}}</div>{{/Next}}</div>' + _SOURCE,
        ),
    ],
    "overlap": [
        (
            "次序填空",
            '<div class="context">{{Title}}</div>' + _CLOZES,
            '<div class="context">{{Title}}</div>' + _CLOZES + '<hr id="answer">{{Full}}' + _SOURCE,
        ),
    ],
}
