"""The teacher's errors in the interface language: a pasted or typed term list's bad rows, the
account and class checks, a deck that yields no card. The layers below (study/) say them in
English for the command line; here each is said Chinese first, English available."""

from __future__ import annotations

from study.decks.termlist import TermListError
from study.errors import Said
from study.model import CATEGORIES

from .i18n import category, lang

MESSAGES: dict[str, dict[str, str]] = {
    # a term list's rows (study.decks.termlist.MESSAGES)
    "row": {"zh": "第 {n} 行：{problem}", "en": "Row {n}: {problem}"},
    "columns": {
        "zh": "应有 2 到 4 列（词语、释义、拼音、类别），这一行有 {found} 列",
        "en": "expected 2 to 4 columns (term, gloss, pinyin, category), found {found}",
    },
    "term_empty": {"zh": "词语是空的", "en": "the term is empty"},
    "term_long": {"zh": "词语有 {n} 个字（最多 {max} 个）", "en": "the term has {n} characters (at most {max})"},
    "gloss_empty": {"zh": "释义是空的", "en": "the gloss is empty"},
    "gloss_long": {"zh": "释义有 {n} 个字（最多 {max} 个）", "en": "the gloss has {n} characters (at most {max})"},
    "markup": {"zh": "不能含有 <标记> 之类的内容", "en": "markup such as <tags> is not allowed"},
    "pinyin": {"zh": "「{value}」不是拼音", "en": "the pinyin {value!r} is not a reading"},
    "category": {"zh": "没有「{value}」这个类别（可用：{names}）", "en": "unknown category {value!r} (one of {names})"},
    "rows": {"zh": "共 {n} 行：一次最多 {max} 行", "en": "{n} rows: a list has at most {max} rows"},
    # accounts and classes (study.learn.classes)
    "name_form": {
        "zh": "名字为 1 到 40 个字符，不能含 < 或 >",
        "en": "A name is 1 to 40 characters, without < or >",
    },
    "password_length": {"zh": "密码为 {min} 到 {max} 个字符", "en": "A password has {min} to {max} characters"},
    "name_taken": {"zh": "「{name}」这个名字已有人用了", "en": "The name 「{name}」 is taken"},
    "class_name": {
        "zh": "班级名称为 1 到 100 个字符，不能含 < 或 >",
        "en": "A class name is 1 to 100 characters, without < or >",
    },
    "no_free_code": {"zh": "暂时找不到空闲的班级代码，请再试一次", "en": "Could not find a free class code; try again"},
    # the deck builder (web.teacher, study.build)
    "choose_rite": {"zh": "请选择文本和礼", "en": "Choose a text and a rite"},
    "term_limit": {"zh": "词语数量应为 1 到 2000 之间的数", "en": "The term limit is a number from 1 to 2000"},
    "unknown_action": {"zh": "未知的操作", "en": "Unknown action"},
    "kind_empty": {"zh": "「{kind}」做不出卡片：{why}", "en": "{kind} yields no card: {why}"},
    "no_card": {"zh": "所选内容做不出任何卡片", "en": "The choice selects no card"},
    "extra_twice": {"zh": "「{term}」重复了", "en": "{term} is given twice"},
    "why_terms": {"zh": "所选仪节里没有用到或注释过的词语", "en": "no term is used or glossed in the chosen stages"},
    "why_passages": {"zh": "所选经文都没有现代译文", "en": "none of the chosen passages has a modern translation"},
    "why_cloze": {"zh": "所选经文都不含有注释的词语", "en": "no chosen passage contains a glossed term"},
    "why_stages": {"zh": "所选的礼没有两个有名称的仪节", "en": "no chosen rite has two named stages"},
    "why_steps": {"zh": "所选仪节没有两个步骤", "en": "no chosen stage has two steps"},
}
KIND_NAMES = {
    "terms": ("词语", "Terms"),
    "passages": ("经文与译文", "Passages"),
    "cloze": ("填空", "Cloze"),
    "stages": ("仪节次序", "Order of stages"),
    "steps": ("步骤次序", "Order of steps"),
}


def say(key: str, **values: object) -> str:
    return MESSAGES[key][lang()].format(**values)


def term_list_errors(error: TermListError) -> list[str]:
    """Each bad row of a term list, in the interface language."""
    out = []
    for n, code, values in error.details:
        if code == "category":
            values = values | {"names": _category_names()}
        out.append(say("row", n=n, problem=say(code, **values)))
    return out


def _category_names() -> str:
    if lang() == "zh":
        return "、".join(category(k) for k in CATEGORIES)
    return ", ".join(f"{k} ({_zh_category(k)})" for k in CATEGORIES)


def _zh_category(key: str) -> str:
    from .i18n import STRINGS

    return STRINGS[f"cat_{key}"]["zh"]


def localize(message: object) -> str:
    """A message of study/ in the interface language: by its key when it has one (:class:`Said`),
    otherwise as it is."""
    if not isinstance(message, Said) or message.key not in MESSAGES:
        return str(message)
    values = message.values
    if message.key == "kind_empty":
        zh, en = KIND_NAMES.get(str(values["kind"]), (str(values["kind"]), str(values["kind"])))
        return say("kind_empty", kind=zh if lang() == "zh" else en, why=say(str(values["why_key"])))
    return say(message.key, **values)
