// The quiz page: asks /api/next, shows the item, posts the answer to /api/answer and shows the
// server's verdict. Grading happens on the server; this file only moves DOM nodes.
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

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  async function api(url, options) {
    const response = await fetch(url, Object.assign({ credentials: "same-origin" }, options || {}));
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function load() {
    feedback.hidden = true;
    feedback.textContent = "";
    nextBtn.hidden = true;
    submitBtn.hidden = true;
    body.textContent = "";
    chosen = null;
    answered = false;
    const params = new URLSearchParams();
    if (root.dataset.kind) params.set("kind", root.dataset.kind);
    if (root.dataset.rite) params.set("rite", root.dataset.rite);
    let data;
    try {
      data = await api(root.dataset.next + (params.toString() ? "?" + params : ""));
    } catch (e) {
      promptEl.textContent = e.message;
      return;
    }
    current = data.item;
    if (!current) {
      promptEl.textContent = S.nothing_due.replace("{when}", new Date(data.next_due).toLocaleString());
      return;
    }
    promptEl.textContent = current.prompt;
    root.dataset.itemKind = current.kind;
    if (current.kind === "choice") renderChoice();
    else if (current.kind === "typed") renderTyped();
    else renderOrder();
  }

  function renderChoice() {
    const list = el("div", { class: "options", role: "radiogroup" });
    current.options.forEach((option) => {
      const button = el("button", { type: "button", class: "option", role: "radio", "aria-checked": "false" }, option);
      button.addEventListener("click", () => {
        if (answered) return;
        list.querySelectorAll(".option").forEach((b) => b.setAttribute("aria-checked", "false"));
        button.setAttribute("aria-checked", "true");
        chosen = option;
        submitBtn.hidden = false;
      });
      list.appendChild(button);
    });
    body.appendChild(list);
  }

  function renderTyped() {
    const input = el("input", { type: "text", id: "typed", maxlength: "200", autocomplete: "off", "aria-label": S.typed_help, placeholder: S.typed_help });
    input.addEventListener("input", () => { chosen = input.value; submitBtn.hidden = !input.value.trim(); });
    input.addEventListener("keydown", (e) => { if (e.key === "Enter" && input.value.trim()) submit(); });
    body.appendChild(input);
    input.focus();
  }

  // --- the ordering widget: pointer drag (mouse and touch), keyboard arrows, up/down buttons ---
  function renderOrder() {
    body.appendChild(el("p", { class: "help" }, S.order_help));
    const list = el("ol", { class: "order", id: "order-list" });
    current.items.forEach((text, index) => {
      const li = el("li", { class: "order-item", tabindex: "0", "data-index": String(index), "aria-roledescription": "sortable" });
      li.appendChild(el("span", { class: "handle", "aria-hidden": "true" }, "⋮⋮"));
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
      li.addEventListener("pointerdown", (e) => startDrag(e, li, list));
      list.appendChild(li);
    });
    body.appendChild(list);
    submitBtn.hidden = false;
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
    if (answered || event.target.closest("button") || event.button > 0) return;
    event.preventDefault();
    li.focus();
    list.setPointerCapture(event.pointerId);
    li.classList.add("dragging");
    const onMove = (e) => {
      if (e.pointerId !== event.pointerId) return;
      const others = [...list.children].filter((c) => c !== li);
      const after = others.find((c) => {
        const box = c.getBoundingClientRect();
        return e.clientY < box.top + box.height / 2;
      });
      if (after && after !== li.nextElementSibling) list.insertBefore(li, after);
      if (!after && list.lastElementChild !== li) list.appendChild(li);
    };
    const onUp = (e) => {
      if (e.pointerId !== event.pointerId) return;
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
    if (!current) return;
    let answer = chosen;
    if (current.kind === "order") {
      answer = [...document.querySelectorAll("#order-list .order-item")].map((li) => Number(li.dataset.index));
    }
    if (answer === null || answer === undefined) return;
    submitBtn.hidden = true;
    let result;
    try {
      result = await api(root.dataset.answer, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
        body: JSON.stringify({ item_id: current.id, answer: answer }),
      });
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
    body.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
    const orderList = document.getElementById("order-list");
    if (orderList) orderList.classList.add("answered");
    feedback.hidden = false;
    feedback.textContent = "";
    feedback.className = "feedback " + (result.correct ? "right" : "wrong");
    feedback.appendChild(el("p", { class: "verdict" }, (result.correct ? S.correct : S.wrong) + " · " + S.score + " " + Math.round(result.score * 100) + "% · " + S.rating + " " + (S["rating_" + result.rating] || result.rating)));
    if (current.kind === "order") {
      const items = [...document.querySelectorAll("#order-list .order-item")];
      (result.misplaced || []).forEach((place) => {
        items[place].classList.add("misplaced");
        items[place].querySelector(".text").after(el("span", { class: "mark" }, S.misplaced));
      });
      const right = el("ol", { class: "right-order" });
      result.expected.forEach((text, k) => {
        const modern = result.modern && result.modern[k] ? "（" + result.modern[k] + "）" : "";
        right.appendChild(el("li", {}, text + modern));
      });
      feedback.appendChild(el("p", {}, S.expected + "："));
      feedback.appendChild(right);
    } else if (current.kind === "choice") {
      body.querySelectorAll(".option").forEach((b) => {
        if (b.textContent === result.expected) b.classList.add("right");
        else if (b.getAttribute("aria-checked") === "true") b.classList.add("wrong");
      });
    }
    if (current.kind !== "order" && !result.correct) {
      feedback.appendChild(el("p", { class: "expected" }, S.expected + "：" + result.expected));
    }
    feedback.appendChild(el("p", { class: "due" }, S.due_again + "：" + new Date(result.due).toLocaleString()));
    nextBtn.hidden = false;
    nextBtn.focus();
  }

  submitBtn.addEventListener("click", submit);
  nextBtn.addEventListener("click", load);
  load();
})();
