// The quiz page: asks /api/next, shows the item (an introduction, or a question), posts the answer
// with its signed token and an answer id to /api/answer, shows the server's verdict with what the
// item teaches, and lets the learner rate themselves (/api/rate). Grading happens on the server;
// this file only moves DOM nodes. Every text goes in through textContent (never HTML).
"use strict";

(function () {
  const root = document.getElementById("quiz");
  if (!root) return;
  const S = JSON.parse(document.getElementById("strings").textContent);
  const promptEl = document.getElementById("prompt");
  const body = document.getElementById("body");
  const feedback = document.getElementById("feedback");
  const submitBtn = document.getElementById("submit");
  const nextBtn = document.getElementById("next");
  let current = null;
  let chosen = null;
  let answered = false; // once the server has graded, the widgets stop moving
  let answerId = null; // one id per question: a retried post is counted once
  let picked = null; // tap-to-place: the order item tapped first

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + Math.random().toString(36).slice(2);
  }

  async function api(url, options) {
    const response = await fetch(url, Object.assign({ credentials: "same-origin" }, options || {}));
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  function post(url, payload) {
    return api(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: JSON.stringify(payload),
    });
  }

  function reset() {
    feedback.hidden = true;
    feedback.textContent = "";
    feedback.className = "feedback";
    nextBtn.hidden = true;
    submitBtn.hidden = true;
    body.textContent = "";
    chosen = null;
    answered = false;
    picked = null;
    answerId = newId();
  }

  async function load() {
    reset();
    const params = new URLSearchParams();
    for (const key of ["kind", "rite", "stage", "to"]) if (root.dataset[key]) params.set(key, root.dataset[key]);
    let data;
    try {
      data = await api(root.dataset.next + (params.toString() ? "?" + params : ""));
    } catch (e) {
      promptEl.textContent = e.message;
      return;
    }
    current = data.item;
    if (!current) {
      promptEl.textContent = data.message || S.nothing_due.replace("{when}", data.next_due_in || "");
      if (data.other_kind) {
        const other = new URLSearchParams(params);
        other.set("kind", data.other_kind);
        const p = el("p", { class: "other-kind" }, S.other_kind_waiting);
        p.appendChild(el("a", { href: root.dataset.page + "?" + other, id: "other-kind" }, S[data.other_kind + "_quiz"]));
        body.appendChild(p);
      }
      return;
    }
    promptEl.textContent = current.prompt;
    root.dataset.itemKind = current.kind;
    if (current.passage) body.appendChild(el("p", { class: "passage asked", id: "asked-passage" }, current.passage));
    if (current.kind === "intro") renderIntro();
    else if (current.kind === "choice") renderChoice();
    else if (current.kind === "typed") renderTyped();
    else renderOrder();
  }

  // --- what an item teaches: used by the introduction and by the feedback ---
  function marked(text, highlight) {
    const p = el("p", { class: "passage" });
    if (highlight) {
      p.append(document.createTextNode(text.slice(0, highlight[0])));
      p.appendChild(el("mark", {}, text.slice(highlight[0], highlight[1])));
      p.append(document.createTextNode(text.slice(highlight[1])));
    } else {
      p.textContent = text;
    }
    return p;
  }

  function stageName(stage) {
    if (!stage) return "";
    return stage.rite + " · " + stage.name + (stage.modern ? "（" + S.modern_name + "：" + stage.modern + "）" : "");
  }

  // where a passage or an example stands: the place in words (卷, rite, stage, printed page and
  // line) with the stage's modern name; else the stage and the text's line
  function whereSaid(d) {
    const modern = d.stage && d.stage.modern ? "（" + S.modern_name + "：" + d.stage.modern + "）" : "";
    if (d.place) return d.place + modern;
    return (d.stage ? stageName(d.stage) : d.rite) + (d.line ? "，" + S.line_no.replace("{line}", d.line) : "");
  }

  function teaching(data) {
    const box = el("div", { class: "teaching" });
    if (data.passage !== undefined) {
      if (data.term) {
        const head = el("p", { class: "term-line" });
        head.appendChild(el("span", { class: "term" }, data.term));
        if (data.reading) head.appendChild(el("span", { class: "reading" }, data.reading));
        box.appendChild(head);
      }
      box.appendChild(el("p", { class: "label" }, S.source + "：" + whereSaid(data)));
      box.appendChild(marked(data.passage, data.highlight));
      if (data.translation) box.appendChild(el("p", { class: "translation" }, S.translation + "：" + data.translation));
    } else if (data.term !== undefined) {
      const head = el("p", { class: "term-line" });
      head.appendChild(el("span", { class: "term" }, data.term));
      if (data.reading) head.appendChild(el("span", { class: "reading" }, data.reading));
      if (data.category) head.appendChild(el("span", { class: "category" }, data.category));
      box.appendChild(head);
      const list = el("ul", { class: "glosses" });
      (data.glosses || []).forEach((g) => {
        const li = el("li", {}, g.gloss);
        const who = [g.commentator ? S.commentator + "：" + g.commentator + (g.commentator_name ? "（" + g.commentator_name + "）" : "") : "", g.place || (g.stage ? stageName(g.stage) : (g.rite || ""))]
          .filter(Boolean).join(" · ");
        if (who) li.appendChild(el("span", { class: "who" }, "（" + who + "）"));
        list.appendChild(li);
      });
      box.appendChild(list);
      if (data.example) {
        box.appendChild(el("p", { class: "label" }, S.example + "（" + S.source + "：" + whereSaid(data.example) + "）"));
        box.appendChild(marked(data.example.text, data.example.highlight));
      }
    } else {
      if (data.stage) box.appendChild(el("p", { class: "label" }, stageName(data.stage)));
      const ol = el("ol", { class: "right-order", start: String((data.position && data.position[0]) || 1) });
      (data.sequence || []).forEach((e) => ol.appendChild(el("li", {}, e.text + (e.modern ? "（" + e.modern + "）" : ""))));
      box.appendChild(ol);
    }
    return box;
  }

  function renderIntro() {
    body.appendChild(teaching(current.intro));
    const go = el("button", { type: "button", id: "intro-done", class: "primary" }, S.intro_continue);
    go.addEventListener("click", async () => {
      go.disabled = true;
      try {
        await post(root.dataset.intro, { token: current.token });
      } catch (e) {
        go.disabled = false;
        body.appendChild(el("p", { class: "error" }, e.message));
        return;
      }
      load();
    });
    body.appendChild(go);
    go.focus();
  }

  // --- choices: click, or 1–4 then Enter ---
  function renderChoice() {
    const list = el("div", { class: "options", role: "radiogroup" });
    current.options.forEach((option, k) => {
      const button = el("button", { type: "button", class: "option", role: "radio", "aria-checked": "false", "data-key": String(k + 1) });
      button.appendChild(el("span", { class: "key", "aria-hidden": "true" }, String(k + 1)));
      button.appendChild(el("span", { class: "option-text" }, option));
      button.addEventListener("click", () => choose(button, option));
      list.appendChild(button);
    });
    body.appendChild(list);
  }

  function choose(button, option) {
    if (answered) return;
    body.querySelectorAll(".option").forEach((b) => b.setAttribute("aria-checked", "false"));
    button.setAttribute("aria-checked", "true");
    chosen = option;
    submitBtn.hidden = false;
  }

  document.addEventListener("keydown", (e) => {
    if (!current || e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (current.kind === "choice" && !answered && /^[1-9]$/.test(e.key)) {
      const button = body.querySelector('.option[data-key="' + e.key + '"]');
      if (button) { e.preventDefault(); button.click(); }
    } else if (e.key === "Enter" && !answered && current.kind === "choice" && chosen !== null) {
      e.preventDefault();
      submit();
    } else if (e.key === "Enter" && answered && !nextBtn.hidden && document.activeElement.tagName !== "BUTTON") {
      e.preventDefault();
      load();
    }
  });

  function renderTyped() {
    const input = el("input", { type: "text", id: "typed", maxlength: "200", autocomplete: "off", "aria-label": S.typed_help, placeholder: S.typed_help });
    input.addEventListener("input", () => { chosen = input.value; submitBtn.hidden = !input.value.trim(); });
    input.addEventListener("keydown", (e) => { if (e.key === "Enter" && input.value.trim()) submit(); });
    body.appendChild(input);
    input.focus();
  }

  // --- ordering: drag by the handle (the list scrolls under a finger elsewhere), auto-scroll
  // while dragging, tap an item then tap where it goes, keyboard arrows, up/down buttons ---
  function renderOrder() {
    body.appendChild(el("p", { class: "help" }, S.order_help));
    const list = el("ol", { class: "order", id: "order-list" });
    current.items.forEach((text, index) => {
      const li = el("li", { class: "order-item", tabindex: "0", "data-index": String(index), "aria-roledescription": "sortable" });
      const handle = el("span", { class: "handle", "aria-hidden": "true" }, "⠿");
      li.appendChild(handle);
      li.appendChild(el("span", { class: "text" }, text));
      const up = el("button", { type: "button", class: "up", "aria-label": S.move_up + "：" + text }, "↑");
      const down = el("button", { type: "button", class: "down", "aria-label": S.move_down + "：" + text }, "↓");
      up.addEventListener("click", () => move(li, -1));
      down.addEventListener("click", () => move(li, 1));
      li.append(up, down);
      li.addEventListener("keydown", (e) => {
        if (answered) return;
        if (e.key === "ArrowUp") { e.preventDefault(); move(li, -1); }
        if (e.key === "ArrowDown") { e.preventDefault(); move(li, 1); }
      });
      handle.addEventListener("pointerdown", (e) => startDrag(e, li, list));
      li.querySelector(".text").addEventListener("click", () => tapPlace(li, list));
      list.appendChild(li);
    });
    body.appendChild(list);
    submitBtn.hidden = false;
  }

  function tapPlace(li, list) {
    if (answered) return;
    if (picked === null) {
      picked = li;
      li.classList.add("picked");
      return;
    }
    if (picked !== li) {
      const items = [...list.children];
      if (items.indexOf(picked) < items.indexOf(li)) list.insertBefore(picked, li.nextElementSibling);
      else list.insertBefore(picked, li);
    }
    picked.classList.remove("picked");
    picked.focus();
    picked = null;
  }

  function move(li, delta) {
    if (answered) return;
    const list = li.parentNode;
    if (delta < 0 && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
    if (delta > 0 && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
    li.focus();
  }

  // The pointer is captured by the list, not the item: moving a node in the DOM releases its
  // capture, so an item holding it would stop receiving moves after its first jump.
  function startDrag(event, li, list) {
    if (answered || event.button > 0) return;
    event.preventDefault();
    li.focus();
    list.setPointerCapture(event.pointerId);
    li.classList.add("dragging");
    let lastY = event.clientY;
    let timer = null;
    const place = (y) => {
      const others = [...list.children].filter((c) => c !== li);
      const after = others.find((c) => {
        const box = c.getBoundingClientRect();
        return y < box.top + box.height / 2;
      });
      if (after && after !== li.nextElementSibling) list.insertBefore(li, after);
      if (!after && list.lastElementChild !== li) list.appendChild(li);
    };
    const edge = 60; // px from the viewport's edge where the page scrolls by itself
    const scrollStep = () => {
      const h = window.innerHeight;
      let dy = 0;
      if (lastY < edge) dy = -Math.ceil((edge - lastY) / 4);
      else if (lastY > h - edge) dy = Math.ceil((lastY - (h - edge)) / 4);
      if (dy) { window.scrollBy(0, dy); place(lastY); }
    };
    timer = setInterval(scrollStep, 16);
    const onMove = (e) => {
      if (e.pointerId !== event.pointerId) return;
      lastY = e.clientY;
      place(e.clientY);
    };
    const onUp = (e) => {
      if (e.pointerId !== event.pointerId) return;
      clearInterval(timer);
      li.classList.remove("dragging");
      list.removeEventListener("pointermove", onMove);
      list.removeEventListener("pointerup", onUp);
      list.removeEventListener("pointercancel", onUp);
      li.focus();
    };
    list.addEventListener("pointermove", onMove);
    list.addEventListener("pointerup", onUp);
    list.addEventListener("pointercancel", onUp);
  }

  async function submit() {
    if (!current || answered) return;
    let answer = chosen;
    if (current.kind === "order") {
      answer = [...document.querySelectorAll("#order-list .order-item")].map((li) => Number(li.dataset.index));
    }
    if (answer === null || answer === undefined) return;
    submitBtn.hidden = true;
    let result;
    try {
      result = await post(root.dataset.answer, { item_id: current.id, answer: answer, token: current.token, answer_id: answerId });
    } catch (e) {
      feedback.hidden = false;
      feedback.textContent = e.message;
      submitBtn.hidden = false;
      return;
    }
    showResult(result);
  }

  function showResult(result) {
    answered = true;
    body.querySelectorAll(".order button, .option, input").forEach((b) => { b.disabled = true; });
    const orderList = document.getElementById("order-list");
    if (orderList) orderList.classList.add("answered");
    feedback.hidden = false;
    feedback.textContent = "";
    feedback.className = "feedback " + (result.correct ? "right" : "wrong");
    feedback.appendChild(el("p", { class: "verdict" }, (result.correct ? S.correct : S.wrong) + " · " + S.score + " " + Math.round(result.score * 100) + "%"));
    if (current.kind === "order") {
      const items = [...document.querySelectorAll("#order-list .order-item")];
      (result.misplaced || []).forEach((place) => {
        items[place].classList.add("misplaced");
        items[place].querySelector(".text").after(el("span", { class: "mark" }, S.misplaced));
      });
    } else if (current.kind === "choice") {
      body.querySelectorAll(".option").forEach((b) => {
        if (b.querySelector(".option-text").textContent === result.expected) b.classList.add("right");
        else if (b.getAttribute("aria-checked") === "true") b.classList.add("wrong");
      });
    }
    if (current.kind !== "order" && !result.correct) {
      feedback.appendChild(el("p", { class: "expected" }, S.expected + "：" + result.expected));
    }
    if (result.context) feedback.appendChild(teaching(result.context));
    const due = el("p", { class: "due", id: "due-line" }, S.due_again + "：" + result.due_in);
    feedback.appendChild(due);
    if (result.choices) feedback.appendChild(rating(result, due));
    nextBtn.hidden = false;
    nextBtn.focus();
  }

  function rating(result, dueLine) {
    const box = el("div", { class: "self-rating", role: "group", "aria-label": S.rate_yourself });
    box.appendChild(el("span", { class: "label" }, S.rate_yourself));
    const choices = result.choices.concat([{ rating: "guessed", due_in: result.choices[0].due_in }]);
    choices.forEach((c) => {
      const name = c.rating === "guessed" ? S.guessed : S["rating_" + c.rating];
      const button = el("button", { type: "button", class: "rate" + (c.rating === result.rating ? " current" : ""), "data-rating": c.rating });
      button.appendChild(el("span", { class: "rate-name" }, name));
      button.appendChild(el("span", { class: "rate-when" }, c.due_in));
      button.addEventListener("click", async () => {
        box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
        try {
          const rated = await post(root.dataset.rate, { token: result.token, rating: c.rating });
          box.querySelectorAll("button").forEach((b) => b.classList.toggle("current", b === button));
          dueLine.textContent = S.rated.replace("{rating}", name).replace("{when}", rated.due_in);
        } catch (e) {
          dueLine.textContent = e.message;
        }
        box.querySelectorAll("button").forEach((b) => { b.disabled = false; });
        nextBtn.focus();
      });
      box.appendChild(button);
    });
    return box;
  }

  submitBtn.addEventListener("click", submit);
  nextBtn.addEventListener("click", load);
  load();
})();
