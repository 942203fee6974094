// Simplified display (简体): a learner's choice, kept in this browser. When on, every text of the
// page is shown converted character by character with the app's table (/script/t2s.json: OpenCC
// t2s of the texts' characters; variants such as 賔 are kept). Display only: what is submitted
// (an option, positions, typed text) is never read back from the converted page.
(function () {
  "use strict";
  const me = document.currentScript;
  const KEY = "study.script";
  let table = null;

  function convert(node) {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.nodeValue;
      let out = "";
      for (const ch of text) out += table[ch] || ch;
      if (out !== text) node.nodeValue = out;
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === "SCRIPT" || node.tagName === "STYLE") return;
    for (const child of node.childNodes) convert(child);
  }

  async function start() {
    const response = await fetch(me.dataset.table, { credentials: "same-origin" });
    if (!response.ok) return;
    table = await response.json();
    convert(document.body);
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.type === "characterData") convert(change.target);
        for (const node of change.addedNodes) convert(node);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }

  function toggle() {
    const on = localStorage.getItem(KEY) === "simplified";
    localStorage.setItem(KEY, on ? "original" : "simplified");
    location.reload();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const on = localStorage.getItem(KEY) === "simplified";
    const nav = document.querySelector("header.top nav");
    if (nav) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link script-toggle";
      button.id = "script-toggle";
      button.textContent = on ? me.dataset.original : me.dataset.simplified;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.addEventListener("click", toggle);
      nav.insertBefore(button, nav.querySelector(".lang"));
    }
    if (on) start();
  });
})();
