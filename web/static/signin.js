// The sign-in form sends the browser's time zone, so that the learner's day starts at 4 a.m. local time.
"use strict";
(function () {
  const field = document.getElementById("time-zone");
  if (field) {
    try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { field.value = ""; }
  }
})();
