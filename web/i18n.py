"""Every string the interface shows, Chinese first, English available."""

from __future__ import annotations

from datetime import timedelta

from flask import request, session

LANGUAGES = ("zh", "en")
DEFAULT = "zh"

STRINGS: dict[str, dict[str, str]] = {
    "app_title": {"zh": "礼经本义 · 学习", "en": "Lijing Benyi · Study"},
    "sign_in": {"zh": "登录", "en": "Sign in"},
    "sign_out": {"zh": "退出", "en": "Sign out"},
    "your_name": {"zh": "你的名字", "en": "Your name"},
    "class_code": {"zh": "班级代码（可选）", "en": "Class code (optional)"},
    "welcome": {"zh": "你好，{name}", "en": "Hello, {name}"},
    "vocab_quiz": {"zh": "词语测验", "en": "Vocabulary quiz"},
    "order_quiz": {"zh": "仪节顺序测验", "en": "Order quiz"},
    "passage_quiz": {"zh": "经文与译文", "en": "Passages"},
    "translation": {"zh": "译文", "en": "Translation"},
    "all_rites": {"zh": "全部礼", "en": "All rites"},
    "excerpt_of": {"zh": "{rite}（节选）", "en": "{rite} (excerpt)"},
    "progress": {"zh": "学习进度", "en": "Progress"},
    "home": {"zh": "首页", "en": "Home"},
    "submit": {"zh": "提交", "en": "Submit"},
    "next_question": {"zh": "下一题", "en": "Next question"},
    "correct": {"zh": "正确", "en": "Correct"},
    "wrong": {"zh": "错误", "en": "Wrong"},
    "expected": {"zh": "正确答案", "en": "Right answer"},
    "score": {"zh": "得分", "en": "Score"},
    "rating": {"zh": "评级", "en": "Rating"},
    "due_again": {"zh": "下次复习", "en": "Next review"},
    # FSRS ratings, named as in Anki's Chinese interface
    "rating_again": {"zh": "重来", "en": "Again"},
    "rating_hard": {"zh": "困难", "en": "Hard"},
    "rating_good": {"zh": "良好", "en": "Good"},
    "rating_easy": {"zh": "简单", "en": "Easy"},
    "nothing_due": {"zh": "现在没有要复习的内容。下次复习：{when}", "en": "Nothing is due now. Next review: {when}"},
    "other_kind_waiting": {"zh": "今天还可以学：", "en": "Still to study today:"},
    "intro_prompt": {"zh": "新内容", "en": "Something new"},
    "intro_continue": {"zh": "知道了，开始练习", "en": "Got it — test me"},
    "reading": {"zh": "读音", "en": "Reading"},
    "commentator": {"zh": "注家", "en": "Commentator"},
    "example": {"zh": "例句", "en": "Example"},
    "source": {"zh": "出处", "en": "Source"},
    "stage": {"zh": "仪节", "en": "Stage"},
    "modern_name": {"zh": "今称", "en": "Modern name"},
    "rate_yourself": {"zh": "自评：", "en": "Rate yourself:"},
    "guessed": {"zh": "猜的", "en": "Guessed"},
    "rated": {"zh": "已记下：{rating}，{when}再复习", "en": "Noted: {rating}; next review {when}"},
    "line_no": {"zh": "第{line}行", "en": "line {line}"},
    "now_": {"zh": "现在", "en": "now"},
    "in_minutes": {"zh": "{n} 分钟后", "en": "in {n} min"},
    "in_hours": {"zh": "{n} 小时后", "en": "in {n} h"},
    "in_days": {"zh": "{n} 天后", "en": "in {n} days"},
    "in_months": {"zh": "{n} 个月后", "en": "in {n} months"},
    "in_years": {"zh": "{n} 年后", "en": "in {n} years"},
    "password_plain": {"zh": "密码", "en": "Password"},
    "new_learner_help": {
        "zh": "新名字会建立新账户；已有账户请用原来的密码。",
        "en": "A new name creates an account; an existing one needs its password.",
    },
    "study_stage": {"zh": "按仪节学习", "en": "Study by stage"},
    "from_stage": {"zh": "从", "en": "From"},
    "to_stage": {"zh": "到（可空）", "en": "To (optional)"},
    "start": {"zh": "开始", "en": "Start"},
    "all_kinds": {"zh": "全部", "en": "All"},
    "dashboard": {"zh": "今天", "en": "Today"},
    "due_now": {"zh": "待复习", "en": "Due"},
    "new_left": {"zh": "今日新内容余量", "en": "New left today"},
    "daily_goal": {"zh": "今日目标", "en": "Daily goal"},
    "streak": {"zh": "连续学习", "en": "Streak"},
    "streak_days": {"zh": "{n} 天", "en": "{n} days"},
    "mastered_note": {
        "zh": "已掌握：FSRS 稳定性 ≥ 21 天（预计 21 天后仍有九成把握记得）。一天从当地时间凌晨 4 点算起。",
        "en": "Mastered: FSRS stability ≥ 21 days (still 90% likely recalled three weeks on). A day starts at 4 a.m. local time.",
    },
    "cat_vessel": {"zh": "器皿", "en": "vessel"},
    "cat_implement": {"zh": "器物", "en": "implement"},
    "cat_garment": {"zh": "服饰", "en": "garment"},
    "cat_action": {"zh": "动作", "en": "action"},
    "cat_place": {"zh": "处所", "en": "place"},
    "cat_role": {"zh": "人物", "en": "role"},
    "cat_measure": {"zh": "度量", "en": "measure"},
    "cat_other": {"zh": "其他", "en": "other"},
    "move_up": {"zh": "上移", "en": "Move up"},
    "move_down": {"zh": "下移", "en": "Move down"},
    "order_help": {
        "zh": "拖动排序，或用上移/下移按钮；键盘：Tab 选中一项，按 ↑/↓ 移动。",
        "en": "Drag to reorder, or use the up/down buttons; keyboard: Tab to an item, then ↑/↓ to move it.",
    },
    "typed_help": {
        "zh": "输入答案（繁简、异体字、标点不计）",
        "en": "Type the answer (variants and punctuation ignored)",
    },
    "misplaced": {"zh": "位置不对", "en": "misplaced"},
    "seen": {"zh": "已学", "en": "Seen"},
    "due": {"zh": "待复习", "en": "Due"},
    "mastered": {"zh": "已掌握", "en": "Mastered"},
    "total": {"zh": "总数", "en": "Total"},
    "forecast": {"zh": "未来七天待复习", "en": "Due in the next 7 days"},
    "accuracy": {"zh": "最近两周正确率", "en": "Accuracy, last two weeks"},
    "recall_share": {"zh": "现在很可能记得的比例", "en": "Share you will most likely recall now"},
    "timeline": {"zh": "仪节时间线", "en": "Rite timeline"},
    "not_studied": {"zh": "未学", "en": "not studied"},
    "language": {"zh": "English", "en": "中文"},
    "error": {"zh": "出错了", "en": "Something went wrong"},
    "teacher": {"zh": "教师", "en": "Teachers"},
    "teacher_area": {"zh": "教师页面", "en": "Teacher area"},
    "sign_up": {"zh": "注册", "en": "Sign up"},
    "log_in": {"zh": "登录", "en": "Log in"},
    "log_out": {"zh": "退出", "en": "Log out"},
    "password": {"zh": "密码（至少8个字符）", "en": "Password (8 characters or more)"},
    "teacher_name": {"zh": "教师姓名", "en": "Teacher's name"},
    "classes": {"zh": "班级", "en": "Classes"},
    "new_class": {"zh": "新建班级", "en": "New class"},
    "class_name": {"zh": "班级名称", "en": "Class name"},
    "code": {"zh": "班级代码", "en": "Class code"},
    "report": {"zh": "班级报告", "en": "Class report"},
    "deck_builder": {"zh": "制作卡组与测验", "en": "Build a deck and a quiz"},
    "deck_name": {"zh": "卡组名称", "en": "Deck name"},
    "text_rite": {"zh": "文本与礼", "en": "Text and rite"},
    "stage_range": {"zh": "仪节范围（从…到…）", "en": "Stages (from … to …)"},
    "stage_pick": {"zh": "或逐个选择仪节", "en": "Or pick stages one by one"},
    "from": {"zh": "从", "en": "From"},
    "to": {"zh": "到", "en": "To"},
    "kinds": {"zh": "卡片类型", "en": "Card kinds"},
    "kind_terms": {"zh": "词语", "en": "Terms"},
    "kind_passages": {"zh": "经文与译文", "en": "Passages"},
    "kind_cloze": {"zh": "填空", "en": "Cloze"},
    "kind_stages": {"zh": "仪节次序", "en": "Order of stages"},
    "kind_steps": {"zh": "步骤次序", "en": "Order of steps"},
    "term_limit": {"zh": "最常用词语的数量（可空）", "en": "Most frequent terms (optional)"},
    "own_terms": {"zh": "自己的词语", "en": "Own terms"},
    "own_terms_help": {
        "zh": "每行：词语、释义、拼音（可空）、类别（可空）",
        "en": "Each row: term, gloss, pinyin (optional), category (optional)",
    },
    "paste_csv": {"zh": "或粘贴 CSV（词语,释义,拼音,类别）", "en": "Or paste CSV (term,gloss,pinyin,category)"},
    "term": {"zh": "词语", "en": "Term"},
    "gloss": {"zh": "释义", "en": "Gloss"},
    "pinyin": {"zh": "拼音", "en": "Pinyin"},
    "category": {"zh": "类别", "en": "Category"},
    "preview": {"zh": "预览", "en": "Preview"},
    "download_apkg": {"zh": "下载 Anki 卡组", "en": "Download Anki deck"},
    "download_csv": {"zh": "下载 CSV", "en": "Download CSV"},
    "download_yaml": {"zh": "下载卡组规格 (YAML)", "en": "Download deck spec (YAML)"},
    "download_moodle": {"zh": "导出 Moodle XML", "en": "Export Moodle XML"},
    "assign": {"zh": "布置给班级", "en": "Assign to class"},
    "assigned": {"zh": "已布置给班级。", "en": "Assigned to the class."},
    "front": {"zh": "正面", "en": "Front"},
    "back": {"zh": "背面", "en": "Back"},
    "learners": {"zh": "学生", "en": "Learners"},
    "items": {"zh": "题目", "en": "Items"},
    "attempts": {"zh": "作答次数", "en": "Attempts"},
    "accuracy_col": {"zh": "正确率", "en": "Accuracy"},
    "overdue": {"zh": "逾期", "en": "Overdue"},
    "last_answer": {"zh": "最近作答", "en": "Last answer"},
    "behind": {"zh": "落后", "en": "Behind"},
    "missed_terms": {"zh": "最常答错的词语", "en": "Most-missed terms"},
    "swapped": {"zh": "最常颠倒的相邻步骤", "en": "Neighbouring steps most often swapped"},
    "export_csv": {"zh": "导出 CSV", "en": "Export CSV"},
    "none_yet": {"zh": "暂无", "en": "None yet"},
    "err_teacher_only": {"zh": "只有教师可以使用这个页面", "en": "Only teachers can use this page"},
    "err_not_your_class": {"zh": "这不是你的班级", "en": "This is not your class"},
    "err_login": {"zh": "姓名或密码不对", "en": "Wrong name or password"},
    "err_choose_class": {"zh": "请选择一个班级", "en": "Choose a class"},
    "prompt_t2g": {"zh": "「{subject}」的意思是？", "en": "What does 「{subject}」 mean?"},
    "prompt_g2t": {"zh": "哪个词的意思是「{subject}」？", "en": "Which term means 「{subject}」?"},
    "prompt_typed": {"zh": "写出意思是「{subject}」的词", "en": "Type the term that means 「{subject}」"},
    "prompt_pinyin": {
        "zh": "写出「{subject}」的拼音（可不标声调）",
        "en": "Type the pinyin of 「{subject}」 (tones optional)",
    },
    "prompt_c2t": {"zh": "这段经文的译文是？", "en": "Which is the translation of this passage?"},
    "prompt_t2c": {"zh": "这段译文对应哪段经文？", "en": "Which passage does this translation render?"},
    "prompt_cloze": {"zh": "填出空缺的词", "en": "Fill in the missing term"},
    "prompt_next": {"zh": "「{subject}」之后是哪一节？", "en": "Which stage comes after 「{subject}」?"},
    "prompt_stages": {"zh": "把{subject}的这几节按顺序排列", "en": "Put these stages of {subject} in order"},
    "prompt_rite": {"zh": "把{subject}的全部各节按顺序排列", "en": "Put all the stages of {subject} in order"},
    "prompt_steps": {"zh": "把「{subject}」一节的步骤按顺序排列", "en": "Put the steps of 「{subject}」 in order"},
    "err_sign_in": {"zh": "请先登录", "en": "Please sign in first"},
    "err_csrf": {"zh": "表单已过期，请重试", "en": "The form expired; please try again"},
    "err_too_large": {"zh": "请求太大", "en": "The request is too large"},
    "err_not_found": {"zh": "找不到这个页面", "en": "No such page"},
    "err_rate_limited": {
        "zh": "尝试次数太多，请 {seconds} 秒后再试",
        "en": "Too many attempts; please try again in {seconds} seconds",
    },
    "err_login_learner": {"zh": "名字或密码不对", "en": "Wrong name or password"},
    "err_name_password": {"zh": "请填写名字和密码", "en": "Give a name and a password"},
    "err_name": {"zh": "名字为1到40个字符，不能含 < 或 >", "en": "A name is 1 to 40 characters, without < or >"},
    "err_password": {"zh": "密码为8到200个字符", "en": "A password has 8 to 200 characters"},
    "err_class_code": {"zh": "没有这个班级代码", "en": "No class has this code"},
    "err_json": {"zh": "请求体必须是 JSON 对象", "en": "The body must be a JSON object"},
    "err_rite": {"zh": "没有「{rite}」这一礼", "en": "No rite called 「{rite}」"},
    "err_kind": {"zh": "kind 只能是 vocab、order 或 passage", "en": "kind is vocab, order or passage"},
    "err_stage": {"zh": "没有这个仪节（或范围不在同一礼中）", "en": "No such stage (or the range spans two rites)"},
    "err_item": {"zh": "没有这道题", "en": "No such item"},
    "err_answer_id": {"zh": "answer_id 为1到64个字符", "en": "answer_id is 1 to 64 characters"},
    "err_answer_long": {"zh": "答案最多{n}个字符", "en": "An answer is at most {n} characters"},
    "err_not_asked": {
        "zh": "这道题还没有出过：请先从 /api/next 取题（并带上 token）",
        "en": "This item was not asked: get it from /api/next first (and send its token)",
    },
    "err_token": {"zh": "题目凭证无效", "en": "The question's token is not valid"},
    "err_token_expired": {"zh": "这道题已过期，请取下一题", "en": "This question has expired; take the next one"},
    "err_answer_shape": {"zh": "答案的形式不对：{detail}", "en": "The answer has the wrong form: {detail}"},
    "err_rating": {
        "zh": "评级只能是 again、hard、good、easy 或 guessed",
        "en": "A rating is again, hard, good, easy or guessed",
    },
    "err_not_answered": {"zh": "这道题还没有作答", "en": "This question has not been answered"},
    "err_rated": {
        "zh": "只能给这道题最近一次的作答评级；答错的只能选「重来」",
        "en": "Only the latest answer to an item can be rated, and a wrong one only as Again",
    },
    "err_db": {"zh": "数据库暂时不可用，请稍后再试", "en": "The database is unavailable; please try again shortly"},
}


def lang() -> str:
    """The interface language: ?lang=, then the session, then Chinese."""
    args = request.args
    asked = args["lang"] if "lang" in args else None  # (MultiDict.get raises and catches when absent)
    if asked in LANGUAGES:
        return asked
    stored = session.get("lang")
    return stored if stored in LANGUAGES else DEFAULT


def t(key: str, **values: object) -> str:
    text = STRINGS[key][lang()]
    return text.format(**values) if values else text


def prompt(direction: str, subject: str) -> str:
    return t(f"prompt_{direction}", subject=subject)


def interval_words(delta: timedelta) -> str:
    """A time from now in words: 「8 天后」, "in 8 days" (rounded as Anki shows intervals)."""
    seconds = delta.total_seconds()
    if seconds < 60:
        return t("now_")
    if seconds < 3600:
        return t("in_minutes", n=max(round(seconds / 60), 1))
    if seconds < 86400:
        return t("in_hours", n=round(seconds / 3600))
    days = seconds / 86400
    if days < 30.5:
        return t("in_days", n=round(days))
    if days < 365:
        return t("in_months", n=round(days / 30.4, 1) if days < 60 else round(days / 30.4))
    return t("in_years", n=round(days / 365, 1))


def category(name: str) -> str:
    key = f"cat_{name}"
    return t(key) if key in STRINGS else name


def localize_teaching(data: dict[str, object]) -> dict[str, object]:
    """Teaching data (study.learn.teach) with its category named in the interface language."""
    if isinstance(data.get("category"), str):
        return data | {"category": category(str(data["category"]))}
    return data
